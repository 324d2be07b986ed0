import { createHmac, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import { constantTimeEqual } from '../../../lib/secrets.ts';
import { ApiError } from '../../../lib/errors.ts';

/**
 * The browser's CSRF secret: a random value in an httpOnly cookie. With Secure cookies it is a
 * `__Host-` cookie, which a sub-domain cannot set for this host (so it cannot plant a known one).
 */
const cookieName = (settings: CsrfSettings) => (settings.secureCookies ? '__Host-csrf' : 'csrf');
/** The hidden field every form carries. */
export const CSRF_FIELD = '_csrf';

const COOKIE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface CsrfSettings {
  /** JWT_SECRET: the key of the form tokens is derived from it. */
  readonly secret: string;
  readonly secureCookies: boolean;
}

function formToken(settings: CsrfSettings, cookie: string): string {
  const key = createHmac('sha256', settings.secret).update('page-form-csrf').digest();
  return createHmac('sha256', key).update(cookie).digest('base64url');
}

/**
 * The token for this browser's forms (signed double submit): a form is taken only when its hidden
 * field is the HMAC of the browser's own CSRF cookie, which another site can neither read nor set.
 * The cookie is made on the first page that shows a form and lives as long as the browser keeps it.
 */
export function csrfTokenFor(ctx: Context, settings: CsrfSettings): string {
  let cookie = ctx.cookies.get(cookieName(settings));
  if (!cookie || !COOKIE_SHAPE.test(cookie)) {
    cookie = randomBytes(32).toString('base64url');
    const parts = [`${cookieName(settings)}=${cookie}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
    if (settings.secureCookies) parts.push('Secure');
    ctx.append('Set-Cookie', parts.join('; '));
  }
  return formToken(settings, cookie);
}

export const CSRF_REFUSED =
  'This form could not be accepted: it is from an old page or from another site. Reload the page and send it again';

/** Refuses (403) a form post whose token is not this browser's. */
export function checkCsrf(ctx: Context, settings: CsrfSettings, submitted: unknown): void {
  const cookie = ctx.cookies.get(cookieName(settings));
  const valid =
    typeof submitted === 'string' &&
    cookie !== undefined &&
    COOKIE_SHAPE.test(cookie) &&
    constantTimeEqual(submitted, formToken(settings, cookie));
  if (!valid) throw new ApiError('forbidden', CSRF_REFUSED);
}
