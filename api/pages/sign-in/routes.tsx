import {
  INVALID_LINK,
  logInWithMagicLink,
  logInWithPassword,
  logOut,
  requestRecoveryLink,
} from '../../auth/auth-commands.ts';
import { emailBody, loginBody, oneTimeTokenBody } from '../../auth/auth.schema.ts';
import type { AuthDependencies } from '../../auth/dependencies.ts';
import { unauthenticated } from '../../../lib/errors.ts';
import type { RequestState } from '../../http/state.ts';
import {
  DASHBOARD_PATH,
  LOGIN_PATH,
  LOGOUT_PATH,
  MAGIC_LINK_PATH,
  MAGIC_LINK_REQUEST_PATH,
} from '../paths.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import { safeNext, type PageRequest, type PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { LoginPage, MagicLinkPage, type LoginView } from './view.tsx';

/** What the sign-in page says after a redirect here, by query parameter. */
function noticeOf(query: Record<string, unknown>): string | undefined {
  if (query.ended) return 'Your session has ended. Sign in again to continue.';
  if (query.signedOut) return 'You have signed out.';
  if (query.reset) return 'Your password has been changed. Sign in with the new one.';
  return undefined;
}

/** The OAuth callback's `error` (the provider's refusal), shown as the form's problem. */
function providerError(query: Record<string, unknown>): FieldErrors {
  return typeof query.error === 'string' && query.error
    ? {
        form: `Signing in with the other account did not work (${query.error.slice(0, 100)}). Try again or use another way.`,
      }
    : {};
}

/** `/login`, the emailed sign-in link's page, and signing out. */
export function mountSignInPages(pages: PageRouter, deps: AuthDependencies): void {
  const providers = deps.config.auth.oauthProviders;
  const show = (request: PageRequest, view: LoginView, status = 200) =>
    renderPage(request.ctx, <LoginPage csrf={request.csrf} view={view} providers={providers} />, status);

  pages.public('GET', LOGIN_PATH, (request) => {
    const query = request.ctx.query;
    if (request.viewer && !query.error) return seeOther(request.ctx, safeNext(query.next) ?? DASHBOARD_PATH);
    show(request, { next: safeNext(query.next), errors: providerError(query), notice: noticeOf(query) });
  });

  pages.public('POST', LOGIN_PATH, async (request) => {
    const { form, ctx } = request;
    const next = safeNext(form.next);
    const parsed = parseForm(loginBody, { email: form.email, password: form.password });
    if ('errors' in parsed) return show(request, { next, email: form.email, errors: parsed.errors }, 422);
    try {
      await logInWithPassword(deps, ctx, parsed.data.email, parsed.data.password);
    } catch (error) {
      const refused = commandErrors(error, ['email', 'password']);
      return show(request, { next, email: form.email, errors: refused.errors }, refused.status);
    }
    seeOther(ctx, next ?? DASHBOARD_PATH);
  });

  pages.public('POST', MAGIC_LINK_REQUEST_PATH, async (request) => {
    const email = request.form['link-email'];
    const parsed = parseForm(emailBody, { email });
    if ('errors' in parsed) {
      return show(request, { linkErrors: { 'link-email': parsed.errors.email ?? 'Required' } }, 422);
    }
    const log = (request.ctx.state as RequestState).log;
    await requestRecoveryLink(deps, log, parsed.data.email, 'magic_link');
    show(request, {
      notice: `If an account has the address ${parsed.data.email}, a sign-in link is on its way. It works once, within 15 minutes.`,
    });
  });

  pages.public('GET', MAGIC_LINK_PATH, (request) => {
    const token = typeof request.ctx.query.token === 'string' ? request.ctx.query.token : '';
    renderPage(
      request.ctx,
      <MagicLinkPage
        csrf={request.csrf}
        token={token}
        error={
          token ? undefined : 'This link has no token: open the link from the email exactly as it was sent'
        }
      />,
    );
  });

  pages.public('POST', MAGIC_LINK_PATH, async (request) => {
    const parsed = parseForm(oneTimeTokenBody, { token: request.form.token });
    try {
      if ('errors' in parsed) throw unauthenticated(INVALID_LINK);
      await logInWithMagicLink(deps, request.ctx, parsed.data.token);
    } catch (error) {
      const refused = commandErrors(error, []);
      const page = <MagicLinkPage csrf={request.csrf} token="" error={refused.errors.form} />;
      return renderPage(request.ctx, page, refused.status);
    }
    seeOther(request.ctx, DASHBOARD_PATH);
  });

  pages.public('POST', LOGOUT_PATH, async (request) => {
    await logOut(deps, request.ctx, (request.ctx.state as RequestState).principal);
    seeOther(request.ctx, `${LOGIN_PATH}?signedOut=1`);
  });
}
