import type { OAuthProviderConfig } from '../../../config/index.ts';
import {
  LOGIN_PATH,
  MAGIC_LINK_PATH,
  MAGIC_LINK_REQUEST_PATH,
  REGISTER_PATH,
  RESET_PASSWORD_PATH,
} from '../paths.ts';
import { ErrorSummary, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, Layout } from '../shared/layout.tsx';

const LABELS = { email: 'Email address', password: 'Password' };

export interface LoginView {
  readonly next?: string | undefined;
  readonly email?: string | undefined;
  readonly errors?: FieldErrors;
  readonly linkErrors?: FieldErrors;
  readonly notice?: string | undefined;
}

/** `/login`: the password form, the emailed link's form, one button per OAuth provider. */
export function LoginPage({
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
      <form method="post" action={LOGIN_PATH} novalidate>
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
          <a href={RESET_PASSWORD_PATH}>Forgotten your password?</a>
        </div>
      </form>

      <h2>Sign in with a link by email</h2>
      <ErrorSummary errors={linkErrors} labels={{ 'link-email': LABELS.email }} />
      <form method="post" action={MAGIC_LINK_REQUEST_PATH} novalidate>
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
        New here? <a href={REGISTER_PATH}>Create an account</a>.
      </p>
    </Layout>
  );
}

/** `/login/magic-link?token=`: a button to sign in, as opening the link signs nobody in. */
export function MagicLinkPage({
  csrf,
  token,
  error,
}: {
  csrf: string;
  token: string;
  error?: string | undefined;
}) {
  return (
    <Layout title="Sign in with your link" csrf={csrf}>
      <ErrorSummary errors={error ? { form: error } : {}} labels={{}} />
      {error ? (
        <p>
          <a href={LOGIN_PATH}>Ask for a new link</a>
        </p>
      ) : (
        <form method="post" action={MAGIC_LINK_PATH}>
          <CsrfField token={csrf} />
          <input type="hidden" name="token" value={token} />
          <p>The link works once. Press the button to sign in.</p>
          <button type="submit">Sign in</button>
        </form>
      )}
    </Layout>
  );
}
