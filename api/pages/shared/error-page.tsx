import type { Context } from 'koa';
import { DASHBOARD_PATH, LOGIN_PATH } from '../paths.ts';
import { viewerOf } from './page-routes.ts';
import { csrfTokenFor, type CsrfSettings } from './csrf.ts';
import { Layout } from './layout.tsx';
import { renderPage } from './render.ts';

const TITLES: Readonly<Record<number, string>> = {
  400: 'Something in the request was wrong',
  403: 'Not allowed',
  404: 'Page not found',
  405: 'Page not found',
  409: 'This cannot be done now',
  413: 'Too much was sent',
  422: 'Something in the request was wrong',
  429: 'Too many requests',
  503: 'The service is unavailable for a moment',
};

// A 404 says the same whether the thing does not exist or is not the visitor's to see.
const NOT_FOUND_TEXT =
  'There is nothing here that you can open. Check the address, or sign in with the account it belongs to.';

/** Requests that a person's browser makes for a page: they get an HTML page, never the JSON envelope. */
export function wantsPage(ctx: Context): boolean {
  return !ctx.path.startsWith('/api/') && ctx.accepts('json', 'html') === 'html';
}

/** The error handler's HTML answer for browsers: the status, a plain message, a way back. */
export function errorPageRenderer(settings: CsrfSettings) {
  return (ctx: Context, status: number, message: string): void => {
    const viewer = viewerOf(ctx);
    const notFound = status === 404 || status === 405;
    const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'The request was refused');
    renderPage(
      ctx,
      <Layout title={title} viewer={viewer} csrf={csrfTokenFor(ctx, settings)}>
        <p>{notFound ? NOT_FOUND_TEXT : message}</p>
        {status === 503 ? <p>Try again in a few seconds.</p> : null}
        <p>
          <a href={viewer ? DASHBOARD_PATH : LOGIN_PATH}>
            {viewer ? 'Go to your dashboard' : 'Go to sign in'}
          </a>
        </p>
      </Layout>,
      status,
    );
  };
}
