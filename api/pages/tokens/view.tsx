import type { ApiTokenView } from '../../../commands/auth/api-token-commands.ts';
import { tokenRevokePath, TOKENS_PATH } from '../paths.ts';
import { ErrorSummary, RadioGroup, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, day, Layout, type Viewer } from '../shared/layout.tsx';

export const TOKEN_LABELS = { name: 'Name', scope: 'What it may do' };

const SCOPES = [
  { value: 'read', label: 'Read: GET requests only' },
  { value: 'read_write', label: 'Read and write: GET, POST and PATCH' },
  { value: 'admin', label: 'Admin: everything, billing and webhooks included' },
];
const SCOPE_TEXT: Readonly<Record<string, string>> = {
  read: 'Read',
  read_write: 'Read and write',
  admin: 'Admin',
};

function TokenTable({ csrf, tokens }: { csrf: string; tokens: readonly ApiTokenView[] }) {
  if (!tokens.length) return <p>Your organization has no API tokens.</p>;
  return (
    <table>
      <caption class="visually-hidden">Your organization's API tokens, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Starts with</th>
          <th scope="col">May</th>
          <th scope="col">Created</th>
          <th scope="col">Last used</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.tokenId}>
            <th scope="row">{token.name}</th>
            <td>
              <code>{token.prefix}</code>
            </td>
            <td>{SCOPE_TEXT[token.scope]}</td>
            <td>{day(new Date(token.createdAt))}</td>
            <td>{token.lastUsedAt ? day(new Date(token.lastUsedAt)) : 'Never'}</td>
            <td>
              {token.revokedAt ? (
                <>Revoked {day(new Date(token.revokedAt))}</>
              ) : (
                <form method="post" action={tokenRevokePath(token.tokenId)}>
                  <CsrfField token={csrf} />
                  <button type="submit" class="secondary">
                    Revoke<span class="visually-hidden">{` ${token.name}`}</span>
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface TokensPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  /** Undefined when the viewer may not manage tokens (not an owner): `refusal` says why. */
  readonly tokens?: readonly ApiTokenView[] | undefined;
  readonly refusal?: string | undefined;
  /** A token just issued, whose secret is shown this once. */
  readonly issued?: { readonly name: string; readonly token: string } | undefined;
  readonly values?: Readonly<Record<string, string>>;
  readonly errors?: FieldErrors;
  readonly notice?: string | undefined;
}

/** `/dashboard/tokens`: the organization's API tokens, for its owners: issue, list, revoke. */
export function TokensPage(props: TokensPageProps) {
  const { csrf, viewer, tokens, refusal, issued, values = {}, errors = {}, notice } = props;
  return (
    <Layout title="API tokens" viewer={viewer} csrf={csrf} notice={notice}>
      <ErrorSummary errors={errors} labels={TOKEN_LABELS} />
      <p>
        Programs use an API token as <code>Authorization: Bearer</code> on the <a href="/api/docs">API</a>. A
        revoked token stops working within 60 seconds.
      </p>
      {refusal ? <p>{refusal}</p> : null}
      {issued ? (
        <section class="panel" aria-labelledby="issued-title">
          <h2 id="issued-title">{`Your new token "${issued.name}"`}</h2>
          <p>Copy it now: it is shown only this once, and only its fingerprint is kept.</p>
          <label for="issued-token">The token</label>
          <input id="issued-token" type="text" readOnly value={issued.token} />
        </section>
      ) : null}
      {tokens ? (
        <>
          <h2>Tokens</h2>
          <TokenTable csrf={csrf} tokens={tokens} />
          <h2>Issue a token</h2>
          <form method="post" action={TOKENS_PATH} novalidate>
            <CsrfField token={csrf} />
            <TextField
              name="name"
              label={TOKEN_LABELS.name}
              value={values.name}
              error={errors.name}
              hint="What uses it, as in Nightly export."
              maxLength={100}
            />
            <RadioGroup
              name="scope"
              legend={TOKEN_LABELS.scope}
              choices={SCOPES}
              value={values.scope ?? 'read'}
              error={errors.scope}
            />
            <button type="submit">Issue the token</button>
          </form>
        </>
      ) : null}
    </Layout>
  );
}
