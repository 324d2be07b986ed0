import { requestRecoveryLink, resetPassword } from '../auth/auth-commands.ts';
import { emailBody, passwordResetConfirmBody } from '../auth/auth.schema.ts';
import type { AuthDependencies } from '../auth/dependencies.ts';
import type { RequestState } from '../http/state.ts';
import { ErrorSummary, TextField, type FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm } from './form-input.ts';
import { CsrfField, Layout } from './layout.tsx';
import type { PageRequest, PageRouter } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';

const LABELS = { email: 'Email address', password: 'New password' };

function RequestResetPage(props: {
  csrf: string;
  email?: string | undefined;
  errors?: FieldErrors;
  notice?: string;
}) {
  const errors = props.errors ?? {};
  return (
    <Layout title="Reset your password" csrf={props.csrf} notice={props.notice}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <form method="post" action="/reset-password/request" novalidate>
        <CsrfField token={props.csrf} />
        <TextField
          name="email"
          label={LABELS.email}
          type="email"
          autocomplete="email"
          value={props.email}
          error={errors.email}
          hint="We email a link to choose a new password. It works once, within 60 minutes."
          required
        />
        <button type="submit">Email me a reset link</button>
      </form>
      <p>
        <a href="/login">Back to sign in</a>
      </p>
    </Layout>
  );
}

function NewPasswordPage(props: { csrf: string; token: string; errors?: FieldErrors }) {
  const errors = props.errors ?? {};
  const linkBroken = Boolean(errors.form);
  return (
    <Layout title="Choose a new password" csrf={props.csrf}>
      <ErrorSummary errors={errors} labels={LABELS} />
      {linkBroken ? (
        <p>
          <a href="/reset-password">Ask for a new reset link</a>
        </p>
      ) : (
        <form method="post" action="/reset-password" novalidate>
          <CsrfField token={props.csrf} />
          <input type="hidden" name="token" value={props.token} />
          <TextField
            name="password"
            label={LABELS.password}
            type="password"
            autocomplete="new-password"
            error={errors.password}
            hint="At least 10 characters. Every other sign-in of your account ends."
            required
          />
          <button type="submit">Change my password</button>
        </form>
      )}
    </Layout>
  );
}

const NO_TOKEN = 'This link has no token: open the link from the email exactly as it was sent';

/** `/reset-password`: asking for the emailed link, and the link's page that sets the new password. */
export function mountRecoveryPages(pages: PageRouter, deps: AuthDependencies): void {
  const request = (
    r: PageRequest,
    props: Omit<Parameters<typeof RequestResetPage>[0], 'csrf'>,
    status = 200,
  ) => renderPage(r.ctx, <RequestResetPage csrf={r.csrf} {...props} />, status);

  pages.public('GET', '/reset-password', (r) => {
    const token = r.ctx.query.token;
    if (typeof token === 'string' && token)
      return renderPage(r.ctx, <NewPasswordPage csrf={r.csrf} token={token} />);
    request(r, {});
  });

  pages.public('POST', '/reset-password/request', async (r) => {
    const parsed = parseForm(emailBody, { email: r.form.email });
    if ('errors' in parsed) return request(r, { email: r.form.email, errors: parsed.errors }, 422);
    await requestRecoveryLink(deps, (r.ctx.state as RequestState).log, parsed.data.email, 'password_reset');
    request(r, {
      notice: `If an account has the address ${parsed.data.email}, a reset link is on its way. It works once, within 60 minutes.`,
    });
  });

  pages.public('POST', '/reset-password', async (r) => {
    const token = r.form.token ?? '';
    if (!token)
      return renderPage(r.ctx, <NewPasswordPage csrf={r.csrf} token="" errors={{ form: NO_TOKEN }} />, 422);
    const parsed = parseForm(passwordResetConfirmBody, { token, password: r.form.password });
    if ('errors' in parsed) {
      const errors = parsed.errors.token ? { form: NO_TOKEN } : parsed.errors;
      return renderPage(r.ctx, <NewPasswordPage csrf={r.csrf} token={token} errors={errors} />, 422);
    }
    try {
      await resetPassword(deps, parsed.data.token, parsed.data.password);
    } catch (error) {
      const refused = commandErrors(error, ['password']);
      return renderPage(
        r.ctx,
        <NewPasswordPage csrf={r.csrf} token={token} errors={refused.errors} />,
        refused.status,
      );
    }
    seeOther(r.ctx, '/login?reset=1');
  });
}
