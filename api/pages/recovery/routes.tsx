import { requestRecoveryLink, resetPassword } from '../../auth/auth-commands.ts';
import { emailBody, passwordResetConfirmBody } from '../../auth/auth.schema.ts';
import type { AuthDependencies } from '../../auth/dependencies.ts';
import type { RequestState } from '../../http/state.ts';
import { LOGIN_PATH, RESET_PASSWORD_PATH, RESET_PASSWORD_REQUEST_PATH } from '../paths.ts';
import { commandErrors, parseForm } from '../shared/form-input.ts';
import type { PageRequest, PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { NewPasswordPage, RequestResetPage } from './view.tsx';

const NO_TOKEN = 'This link has no token: open the link from the email exactly as it was sent';

/** `/reset-password`: asking for the emailed link, and the link's page that sets the new password. */
export function mountRecoveryPages(pages: PageRouter, deps: AuthDependencies): void {
  const request = (
    r: PageRequest,
    props: Omit<Parameters<typeof RequestResetPage>[0], 'csrf'>,
    status = 200,
  ) => renderPage(r.ctx, <RequestResetPage csrf={r.csrf} {...props} />, status);

  pages.public('GET', RESET_PASSWORD_PATH, (r) => {
    const token = r.ctx.query.token;
    if (typeof token === 'string' && token)
      return renderPage(r.ctx, <NewPasswordPage csrf={r.csrf} token={token} />);
    request(r, {});
  });

  pages.public('POST', RESET_PASSWORD_REQUEST_PATH, async (r) => {
    const parsed = parseForm(emailBody, { email: r.form.email });
    if ('errors' in parsed) return request(r, { email: r.form.email, errors: parsed.errors }, 422);
    await requestRecoveryLink(deps, (r.ctx.state as RequestState).log, parsed.data.email, 'password_reset');
    request(r, {
      notice: `If an account has the address ${parsed.data.email}, a reset link is on its way. It works once, within 60 minutes.`,
    });
  });

  pages.public('POST', RESET_PASSWORD_PATH, async (r) => {
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
    seeOther(r.ctx, `${LOGIN_PATH}?reset=1`);
  });
}
