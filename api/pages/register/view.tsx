import { LOGIN_PATH, REGISTER_PATH } from '../paths.ts';
import { ErrorSummary, RadioGroup, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout } from '../shared/layout.tsx';

export const LABELS = {
  role: 'I am joining as',
  email: 'Email address',
  password: 'Password',
  displayName: 'Your name',
  organizationName: 'Organization name',
};
/** `/register`: a tester or a business account (with its organization). */
export function RegisterPage(props: {
  csrf: string;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}) {
  const { csrf, values, errors } = props;
  return (
    <Layout title="Create an account" csrf={csrf}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <form method="post" action={REGISTER_PATH} novalidate>
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
        Already have an account? <a href={LOGIN_PATH}>Sign in</a>.
      </p>
    </Layout>
  );
}
