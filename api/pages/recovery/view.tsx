import { LOGIN_PATH, RESET_PASSWORD_PATH, RESET_PASSWORD_REQUEST_PATH } from '../paths.ts';
import { ErrorSummary, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout } from '../shared/layout.tsx';

export const LABELS = { email: 'Email address', password: 'New password' };

/** `/reset-password`: asks for the emailed reset link. */
export function RequestResetPage(props: {
  csrf: string;
  email?: string | undefined;
  errors?: FieldErrors;
  notice?: string;
}) {
  const errors = props.errors ?? {};
  return (
    <Layout title="Reset your password" csrf={props.csrf} notice={props.notice}>
      <ErrorSummary errors={errors} labels={LABELS} />
      <form method="post" action={RESET_PASSWORD_REQUEST_PATH} novalidate>
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
        <a href={LOGIN_PATH}>Back to sign in</a>
      </p>
    </Layout>
  );
}

/** `/reset-password?token=`: the emailed link's new-password form. */
export function NewPasswordPage(props: { csrf: string; token: string; errors?: FieldErrors }) {
  const errors = props.errors ?? {};
  const linkBroken = Boolean(errors.form);
  return (
    <Layout title="Choose a new password" csrf={props.csrf}>
      <ErrorSummary errors={errors} labels={LABELS} />
      {linkBroken ? (
        <p>
          <a href={RESET_PASSWORD_PATH}>Ask for a new reset link</a>
        </p>
      ) : (
        <form method="post" action={RESET_PASSWORD_PATH} novalidate>
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
