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

/**
 * Answers with the page, escaped by preact as it renders (text and attributes alike). A page whose
 * form leads elsewhere names that origin in `formOrigins`: the browser applies `form-action` to
 * the redirect that follows a post too (the study page's checkout goes on to the provider's page).
 */
export function renderPage(
  ctx: Context,
  page: VNode,
  status = 200,
  formOrigins: readonly string[] = [],
): void {
  ctx.status = status;
  ctx.type = 'html';
  for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) ctx.set(name, value);
  if (formOrigins.length) {
    const policy = PAGE_SECURITY_HEADERS['Content-Security-Policy']!;
    ctx.set(
      'Content-Security-Policy',
      policy.replace("form-action 'self'", `form-action 'self' ${formOrigins.join(' ')}`),
    );
  }
  ctx.body = `<!doctype html>\n${renderToString(page)}`;
}

/** 303: after a form post the browser fetches the next page with GET. */
export function seeOther(ctx: Context, location: string): void {
  ctx.redirect(location);
  ctx.status = 303;
  ctx.set('Cache-Control', 'no-store');
}
