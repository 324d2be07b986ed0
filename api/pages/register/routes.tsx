import { registerAccount } from '../../auth/auth-commands.ts';
import { registerBody } from '../../auth/auth.schema.ts';
import type { AuthDependencies } from '../../auth/dependencies.ts';
import { DASHBOARD_PATH, REGISTER_PATH } from '../paths.ts';
import { commandErrors, parseForm, withoutBlanks } from '../shared/form-input.ts';
import type { PageRouter } from '../shared/page-routes.ts';
import { renderPage, seeOther } from '../shared/render.ts';
import { LABELS, RegisterPage } from './view.tsx';

const FIELDS = Object.keys(LABELS);

/** Registration as a business or a tester, through the same command as `POST /api/auth/register`. */
export function mountRegisterPages(pages: PageRouter, deps: AuthDependencies): void {
  pages.public('GET', REGISTER_PATH, (r) => {
    if (r.viewer) return seeOther(r.ctx, DASHBOARD_PATH);
    renderPage(r.ctx, <RegisterPage csrf={r.csrf} values={{}} errors={{}} />);
  });

  pages.public('POST', REGISTER_PATH, async (r) => {
    const { form } = r;
    const values = Object.fromEntries(FIELDS.map((name) => [name, form[name] ?? '']));
    const parsed = parseForm(registerBody, withoutBlanks(values));
    if ('errors' in parsed)
      return renderPage(r.ctx, <RegisterPage csrf={r.csrf} values={values} errors={parsed.errors} />, 422);
    try {
      await registerAccount(deps, r.ctx, parsed.data);
    } catch (error) {
      const { errors, status } = commandErrors(error, FIELDS);
      // The one conflict is the email address being taken: it belongs next to that field.
      const shown = status === 409 && errors.form ? { email: errors.form } : errors;
      return renderPage(r.ctx, <RegisterPage csrf={r.csrf} values={values} errors={shown} />, status);
    }
    seeOther(r.ctx, DASHBOARD_PATH);
  });
}
