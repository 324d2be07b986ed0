import type { OAuthProviderConfig } from '../../config/index.ts';
import {
  INVALID_LINK,
  logInWithMagicLink,
  logInWithPassword,
  logOut,
  requestRecoveryLink,
} from '../auth/auth-commands.ts';
import { emailBody, loginBody, oneTimeTokenBody } from '../auth/auth.schema.ts';
import type { AuthDependencies } from '../auth/dependencies.ts';
import { unauthenticated } from '../http/errors.ts';
import type { RequestState } from '../http/state.ts';
import { ErrorSummary, TextField, type FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm } from './form-input.ts';
import { CsrfField, Layout } from './layout.tsx';
import type { PageRequest, PageRouter } from './page-routes.ts';
import { safeNext } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';

const LABELS = { email: 'Email address', password: 'Password' };

/** What the sign-in page says after a redirect here, by query parameter. */
function noticeOf(query: Record<string, unknown>): string | undefined {
  if (query.ended) return 'Your session has ended. Sign in again to continue.';
  if (query.signedOut) return 'You have signed out.';
  if (query.reset) return 'Your password has been changed. Sign in with the new one.';
  return undefined;
}

interface LoginView {
  readonly next?: string | undefined;
  readonly email?: string | undefined;
  readonly errors?: FieldErrors;
  readonly linkErrors?: FieldErrors;
  readonly notice?: string | undefined;
}

function LoginPage({
  csrf,
  view,
  providers,
}: {
  csrf: string;
  view: LoginView;
  providers: readonly OAuthProviderConfig[];
}) {
  const errors = view.errors ?? {};
  const linkErrors = view.linkErrors ?? {};
  return (
    <Layout title="Sign in" csrf={csrf} notice={view.notice}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <form method="post" action="/login" novalidate>
        <CsrfField token={csrf} />
        {view.next ? <input type="hidden" name="next" value={view.next} /> : null}
        <TextField
          name="email"
          label={LABELS.email}
          type="email"
          autocomplete="email"
          value={view.email}
          error={errors.email}
          required
        />
        <TextField
          name="password"
          label={LABELS.password}
          type="password"
          autocomplete="current-password"
          error={errors.password}
          required
        />
        <div class="actions">
          <button type="submit">Sign in</button>
          <a href="/reset-password">Forgotten your password?</a>
        </div>
      </form>

      <h2>Sign in with a link by email</h2>
      <ErrorSummary errors={linkErrors} labels={{ 'link-email': LABELS.email }} />
      <form method="post" action="/login/magic-link/request" novalidate>
        <CsrfField token={csrf} />
        <TextField
          name="link-email"
          label={LABELS.email}
          type="email"
          autocomplete="email"
          error={linkErrors['link-email']}
          hint="We send a link that signs you in once, within 15 minutes."
          required
        />
        <button type="submit" class="secondary">
          Email me a sign-in link
        </button>
      </form>

      {providers.length ? (
        <>
          <h2>Sign in with another account</h2>
          <ul class="actions">
            {providers.map((provider) => (
              <li key={provider.id}>
                <a class="button secondary" href={`/api/auth/oauth/${encodeURIComponent(provider.id)}`}>
                  {`Sign in with ${provider.id}`}
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p>
        New here? <a href="/register">Create an account</a>.
      </p>
    </Layout>
  );
}

/** The OAuth callback's `error` (the provider's refusal), shown as the form's problem. */
function providerError(query: Record<string, unknown>): FieldErrors {
  return typeof query.error === 'string' && query.error
    ? {
        form: `Signing in with the other account did not work (${query.error.slice(0, 100)}). Try again or use another way.`,
      }
    : {};
}

function MagicLinkPage({ csrf, token, error }: { csrf: string; token: string; error?: string | undefined }) {
  return (
    <Layout title="Sign in with your link" csrf={csrf}>
      <ErrorSummary errors={error ? { form: error } : {}} labels={{}} />
      {error ? (
        <p>
          <a href="/login">Ask for a new link</a>
        </p>
      ) : (
        <form method="post" action="/login/magic-link">
          <CsrfField token={csrf} />
          <input type="hidden" name="token" value={token} />
          <p>The link works once. Press the button to sign in.</p>
          <button type="submit">Sign in</button>
        </form>
      )}
    </Layout>
  );
}

/** `/login`, the emailed sign-in link's page, and signing out. */
export function mountSignInPages(pages: PageRouter, deps: AuthDependencies): void {
  const providers = deps.config.auth.oauthProviders;
  const show = (request: PageRequest, view: LoginView, status = 200) =>
    renderPage(request.ctx, <LoginPage csrf={request.csrf} view={view} providers={providers} />, status);

  pages.public('GET', '/login', (request) => {
    const query = request.ctx.query;
    if (request.viewer && !query.error) return seeOther(request.ctx, safeNext(query.next) ?? '/dashboard');
    show(request, { next: safeNext(query.next), errors: providerError(query), notice: noticeOf(query) });
  });

  pages.public('POST', '/login', async (request) => {
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
    seeOther(ctx, next ?? '/dashboard');
  });

  pages.public('POST', '/login/magic-link/request', async (request) => {
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

  pages.public('GET', '/login/magic-link', (request) => {
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

  pages.public('POST', '/login/magic-link', async (request) => {
    const parsed = parseForm(oneTimeTokenBody, { token: request.form.token });
    try {
      if ('errors' in parsed) throw unauthenticated(INVALID_LINK);
      await logInWithMagicLink(deps, request.ctx, parsed.data.token);
    } catch (error) {
      const refused = commandErrors(error, []);
      const page = <MagicLinkPage csrf={request.csrf} token="" error={refused.errors.form} />;
      return renderPage(request.ctx, page, refused.status);
    }
    seeOther(request.ctx, '/dashboard');
  });

  pages.public('POST', '/logout', async (request) => {
    await logOut(deps, request.ctx, (request.ctx.state as RequestState).principal);
    seeOther(request.ctx, '/login?signedOut=1');
  });
}
