import type { Context } from 'koa';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/**
 * What a browser needs from every page: no script but the site's own files, no inline style or
 * script, never framed, forms posting only here, no Referer (magic-link and reset pages carry a
 * token in their address), and nothing of a signed-in person's page kept in a cache.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** What a page's policy allows beyond every page's. */
export interface PagePolicy {
  /** Origins its forms lead to: the browser applies `form-action` to the redirect that follows a post too. */
  readonly formOrigins?: readonly string[];
  /** It frames pages of this site (a finding's replay). */
  readonly framesSelf?: boolean;
  /**
   * It is a page of this site meant to be framed by this site, replaying a recording: rrweb
   * rebuilds the recorded page's styles as inline style elements in its own sandboxed frame.
   */
  readonly replay?: boolean;
}

/** The Content-Security-Policy of a page with `policy`. */
function securityPolicy({ formOrigins = [], framesSelf = false, replay = false }: PagePolicy): string {
  let csp = PAGE_SECURITY_HEADERS['Content-Security-Policy']!;
  if (formOrigins.length)
    csp = csp.replace("form-action 'self'", `form-action 'self' ${formOrigins.join(' ')}`);
  if (framesSelf) csp += "; frame-src 'self'";
  if (replay) {
    csp = csp
      .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
      .replace("frame-ancestors 'none'", "frame-ancestors 'self'");
  }
  return csp;
}

/** Answers with the page, escaped by preact as it renders (text and attributes alike). */
export function renderPage(ctx: Context, page: VNode, status = 200, policy: PagePolicy = {}): void {
  ctx.status = status;
  ctx.type = 'html';
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(name, value);
  ctx.set('Content-Security-Policy', securityPolicy(policy));
  if (policy.replay) ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.body = `<!doctype html>\n${renderToString(page)}`;
}

/** 303: after a form post the browser fetches the next page with GET. */
export function seeOther(ctx: Context, location: string): void {
  ctx.redirect(location);
  ctx.status = 303;
  ctx.set('Cache-Control', 'no-store');
}
