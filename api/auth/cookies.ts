import type { Context } from 'koa';

export const SESSION_COOKIE = 'session';
export const REFRESH_COOKIE = 'refresh_token';
export const OAUTH_STATE_COOKIE = 'oauth_state';

/** The refresh cookie travels only to the auth endpoints that use it. */
export const REFRESH_COOKIE_PATH = '/api/auth';

export interface CookieOptions {
  readonly maxAgeSeconds: number;
  readonly path?: string;
  readonly sameSite?: 'Strict' | 'Lax';
  /** Secure everywhere but development (plain-http localhost). */
  readonly secure: boolean;
}

/**
 * Writes Set-Cookie directly: Koa's cookie jar refuses `Secure` on a plain-http hop (as behind a
 * TLS-terminating proxy or in tests), where the browser still sees https.
 */
export function setCookie(ctx: Context, name: string, value: string, options: CookieOptions): void {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path ?? '/'}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    `SameSite=${options.sameSite ?? 'Lax'}`,
  ];
  if (options.secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(ctx: Context, name: string, options: Omit<CookieOptions, 'maxAgeSeconds'>): void {
  setCookie(ctx, name, '', { ...options, maxAgeSeconds: 0 });
}
