import { registerAccount } from '../auth/auth-commands.ts';
import { registerBody } from '../auth/auth.schema.ts';
import type { AuthDependencies } from '../auth/dependencies.ts';
import { ErrorSummary, RadioGroup, TextField, type FieldErrors } from './form-fields.tsx';
import { commandErrors, parseForm, withoutBlanks } from './form-input.ts';
import { CsrfField, Layout } from './layout.tsx';
import type { PageRouter } from './page-routes.ts';
import { renderPage, seeOther } from './render.ts';

const LABELS = {
  role: 'I am joining as',
  email: 'Email address',
  password: 'Password',
  displayName: 'Your name',
  organizationName: 'Organization name',
};
const FIELDS = Object.keys(LABELS);

function RegisterPage(props: {
  csrf: string;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  const { csrf, values, errors } = props;
  return (
    <Layout title="Create an account" csrf={csrf}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <form method="post" action="/register" novalidate>
        <CsrfField token={csrf} />
        <RadioGroup
          name="role"
          legend={LABELS.role}
          value={values.role}
          error={errors.role}
          required
          choices={[
            { value: 'tester', label: 'A tester: I take part in studies and am paid for them' },
            { value: 'business', label: 'A business: I commission studies' },
          ]}
        />
        <TextField
          name="email"
          label={LABELS.email}
          type="email"
          autocomplete="email"
          value={values.email}
          error={errors.email}
          required
        />
        <TextField
          name="password"
          label={LABELS.password}
          type="password"
          autocomplete="new-password"
          error={errors.password}
          hint="At least 10 characters."
          required
        />
        <TextField
          name="displayName"
          label={LABELS.displayName}
          autocomplete="name"
          value={values.displayName}
          error={errors.displayName}
          hint="Optional."
          maxLength={200}
        />
        <TextField
          name="organizationName"
          label={LABELS.organizationName}
          autocomplete="organization"
          value={values.organizationName}
          error={errors.organizationName}
          hint="Businesses only; optional."
          maxLength={200}
        />
        <button type="submit">Create my account</button>
      </form>
      <p>
        Already have an account? <a href="/login">Sign in</a>.
      </p>
    </Layout>
  );
}

/** Registration as a business or a tester, through the same command as `POST /api/auth/register`. */
export function mountRegisterPages(pages: PageRouter, deps: AuthDependencies): void {
  pages.public('GET', '/register', (r) => {
    if (r.viewer) return seeOther(r.ctx, '/dashboard');
    renderPage(r.ctx, <RegisterPage csrf={r.csrf} values={{}} errors={{}} />);
  });

  pages.public('POST', '/register', async (r) => {
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
    seeOther(r.ctx, '/dashboard');
  });
}
