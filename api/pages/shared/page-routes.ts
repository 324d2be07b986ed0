import type Router from '@koa/router';
import type { Context } from 'koa';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import { notFound } from '../../../lib/errors.ts';
import type { RequestState } from '../../http/state.ts';
import { LOGIN_PATH } from '../paths.ts';
import { checkCsrf, CSRF_FIELD, csrfTokenFor, type CsrfSettings } from './csrf.ts';
import { formValues } from './form-input.ts';
import type { Viewer } from './layout.tsx';
import { seeOther } from './render.ts';

export interface PageRequest {
  readonly ctx: Context;
  /** This browser's form token, for every form the page shows. */
  readonly csrf: string;
  /** The posted fields (empty on GET). */
  readonly form: Readonly<Record<string, string>>;
  readonly viewer: Viewer | undefined;
}

export interface SignedInRequest extends PageRequest {
  readonly viewer: Viewer;
  readonly principal: SessionPrincipal;
}

type Handler<R> = (request: R) => Promise<void> | void;

/** A person signed in with the session cookie (API and test tokens do not open pages). */
function sessionOf(ctx: Context): SessionPrincipal | undefined {
  const principal = (ctx.state as RequestState).principal;
  return principal?.kind === 'session' ? principal : undefined;
}

/** Who is looking at the page, when signed in with the session cookie. */
export function viewerOf(ctx: Context): Viewer | undefined {
  const principal = sessionOf(ctx);
  return principal ? { id: principal.claims.sub, role: principal.claims.role } : undefined;
}

/** Pages of one role: anyone else is shown that there is nothing here (the 404 page). */
export function requireRole(request: SignedInRequest, role: Viewer['role']): void {
  if (request.viewer.role !== role) throw notFound('Page');
}

/** Where to go after signing in: only a path of this site, never another origin. */
export function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/(?![/\\])/.test(next) ? next : undefined;
}

/** The sign-in page, returning to `path` afterwards; says so when a session has just ended. */
export function loginRedirect(ctx: Context, path: string): void {
  const ended = (ctx.state as RequestState).authFailure ? '&ended=1' : '';
  seeOther(ctx, `${LOGIN_PATH}?next=${encodeURIComponent(path)}${ended}`);
}

/**
 * Mounts the server-rendered pages: GET shows, POST takes a form, whose CSRF token is checked before
 * anything else. `signedIn` pages send a visitor without a valid session cookie (none, expired,
 * ended) to the sign-in page and back.
 */
export function pageRouter(router: Router<RequestState>, settings: CsrfSettings) {
  const mounted: string[] = [];
  const request = (ctx: Context): PageRequest => {
    return {
      ctx,
      csrf: csrfTokenFor(ctx, settings),
      form: ctx.method === 'POST' ? formValues(ctx) : {},
      viewer: viewerOf(ctx),
    };
  };
  const mount = (method: 'GET' | 'POST', path: string, handle: (ctx: Context) => Promise<void>) => {
    const wrapped = async (ctx: Context) => {
      if (method === 'POST') checkCsrf(ctx, settings, formValues(ctx)[CSRF_FIELD]);
      await handle(ctx);
    };
    if (method === 'GET') router.get(path, wrapped);
    else router.post(path, wrapped);
    mounted.push(`${method} ${path}`);
  };
  return {
    /** Every page route mounted so far, as `METHOD path`. */
    mounted: mounted as readonly string[],
    public(method: 'GET' | 'POST', path: string, handler: Handler<PageRequest>) {
      mount(method, path, async (ctx) => handler(request(ctx)));
    },
    /**
     * `returnTo` names the page to come back to after signing in, for a POST whose own path has no
     * page (its GET is not found); by default a GET comes back to itself and a POST to its path.
     */
    signedIn(
      method: 'GET' | 'POST',
      path: string,
      handler: Handler<SignedInRequest>,
      returnTo: (ctx: Context) => string = (ctx) => (method === 'GET' ? ctx.originalUrl : ctx.path),
    ) {
      mount(method, path, async (ctx) => {
        const principal = sessionOf(ctx);
        if (!principal) {
          loginRedirect(ctx, returnTo(ctx));
          return;
        }
        await handler({ ...request(ctx), principal } as SignedInRequest);
      });
    },
  };
}

export type PageRouter = ReturnType<typeof pageRouter>;
