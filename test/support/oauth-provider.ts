import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProviderAccount {
  readonly sub: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly name?: string;
  /** The provider answers 403 on userinfo for a suspended account. */
  readonly suspended?: boolean;
}

interface IssuedCode {
  readonly account: ProviderAccount;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly challenge: string;
  used: boolean;
}

export interface LocalOAuthProvider {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Environment variables configuring this server as provider slot `n` under `id`. */
  env(n: 1 | 2, id: string): NodeJS.ProcessEnv;
  /** Who is "signed in" at the provider: its authorize page approves at once as this account. */
  signInAs(account: ProviderAccount): void;
  /** Token requests received, for assertions on what the client sent. */
  readonly tokenRequests: URLSearchParams[];
  stop(): Promise<void>;
}

/**
 * An OAuth 2.0 authorization server speaking the real wire protocol (authorize redirect, form
 * token request with PKCE S256, bearer userinfo), so the service's client code runs unchanged.
 */
export async function startOAuthProvider(): Promise<LocalOAuthProvider> {
  const clientId = `client-${randomBytes(4).toString('hex')}`;
  const clientSecret = randomBytes(16).toString('hex');
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, ProviderAccount>();
  const tokenRequests: URLSearchParams[] = [];
  let current: ProviderAccount | undefined;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };

  function authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== clientId || q.get('response_type') !== 'code' || !redirectUri) {
      json(res, 400, { error: 'invalid_request' });
      return;
    }
    const target = new URL(redirectUri);
    target.searchParams.set('state', q.get('state') ?? '');
    if (!current || q.get('code_challenge_method') !== 'S256' || !q.get('code_challenge')) {
      target.searchParams.set('error', current ? 'invalid_request' : 'access_denied');
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        account: current,
        clientId,
        redirectUri,
        challenge: q.get('code_challenge')!,
        used: false,
      });
      target.searchParams.set('code', code);
    }
    res.writeHead(302, { Location: target.toString() }).end();
  }

  async function token(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const form = new URLSearchParams(raw);
    tokenRequests.push(form);
    const issued = codes.get(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const valid =
      issued &&
      !issued.used &&
      form.get('grant_type') === 'authorization_code' &&
      form.get('client_id') === clientId &&
      form.get('client_secret') === clientSecret &&
      form.get('redirect_uri') === issued.redirectUri &&
      createHash('sha256').update(verifier).digest('base64url') === issued.challenge;
    if (!valid) {
      json(res, 400, { error: 'invalid_grant' });
      return;
    }
    issued.used = true;
    const accessToken = randomBytes(16).toString('hex');
    accessTokens.set(accessToken, issued.account);
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: randomBytes(16).toString('hex'),
    });
  }

  function userinfo(req: IncomingMessage, res: ServerResponse) {
    const account = accessTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    if (!account) json(res, 401, { error: 'invalid_token' });
    else if (account.suspended) json(res, 403, { error: 'account_suspended' });
    else json(res, 200, { ...account, suspended: undefined });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/authorize') authorize(url, res);
    else if (req.method === 'POST' && url.pathname === '/token') void token(req, res);
    else if (req.method === 'GET' && url.pathname === '/userinfo') userinfo(req, res);
    else json(res, 404, { error: 'not_found' });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    tokenRequests,
    env: (n, id) => ({
      [`OAUTH_PROVIDER_${n}_ID`]: id,
      [`OAUTH_PROVIDER_${n}_CLIENT_ID`]: clientId,
      [`OAUTH_PROVIDER_${n}_CLIENT_SECRET`]: clientSecret,
      [`OAUTH_PROVIDER_${n}_AUTHORIZE_URL`]: `${url}/authorize`,
      [`OAUTH_PROVIDER_${n}_TOKEN_URL`]: `${url}/token`,
      [`OAUTH_PROVIDER_${n}_USERINFO_URL`]: `${url}/userinfo`,
    }),
    signInAs(account) {
      current = account;
    },
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
