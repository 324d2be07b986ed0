import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import {
  startOAuthProvider,
  type LocalOAuthProvider,
  type ProviderAccount,
} from '../support/oauth-provider.ts';
import { cookieValue, createPasswordUser, MINUTE, setCookies, TestClock } from './helpers.ts';

const BASE_URL = 'https://usability.example';

describe('OAuth sign-in (GET /api/auth/oauth/:provider, GET /api/auth/callback)', () => {
  const clock = new TestClock();
  let first: LocalOAuthProvider;
  let second: LocalOAuthProvider;
  let api: TestApi;
  before(async () => {
    first = await startOAuthProvider();
    second = await startOAuthProvider();
    api = await startTestApi({
      now: clock.now,
      worker: false,
      env: { ...first.env(1, 'idp-one'), ...second.env(2, 'idp-two') },
    });
  });
  after(async () => {
    await api.stop();
    await first.stop();
    await second.stop();
  });

  const account = (overrides: Partial<ProviderAccount> = {}): ProviderAccount => ({
    sub: randomUUID(),
    email: `oauth-${randomUUID()}@example.com`,
    email_verified: true,
    name: 'Ada Provider',
    ...overrides,
  });

  /** Start at the API, pass the provider's authorize page; returns the callback the browser would follow. */
  async function throughProvider(providerId = 'idp-one', query = '') {
    const start = await fetch(`${api.url}/api/auth/oauth/${providerId}${query}`, { redirect: 'manual' });
    assert.equal(start.status, 302);
    const stateCookie = cookieValue(start.headers, 'oauth_state');
    const authorize = new URL(start.headers.get('Location')!);
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorize.searchParams.get('redirect_uri'), `${BASE_URL}/api/auth/callback`);
    const approved = await fetch(authorize, { redirect: 'manual' });
    const callback = new URL(approved.headers.get('Location')!);
    assert.equal(callback.origin + callback.pathname, `${BASE_URL}/api/auth/callback`);
    return { callback, stateCookie };
  }

  function callback(url: URL | string, stateCookie?: string) {
    const target = new URL(url.toString(), BASE_URL);
    return fetch(`${api.url}${target.pathname}${target.search}`, {
      redirect: 'manual',
      headers: stateCookie ? { Cookie: `oauth_state=${stateCookie}` } : {},
    });
  }

  async function errorOf(response: Response): Promise<string> {
    return ((await response.json()) as { error: string }).error;
  }

  it('creates the user, sets the session JWT cookie and redirects to {base_url}/dashboard', async () => {
    const profile = account();
    first.signInAs(profile);
    const { callback: url, stateCookie } = await throughProvider();
    const response = await callback(url, stateCookie);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), `${BASE_URL}/dashboard`);
    const jwt = cookieValue(response.headers, 'session');
    assert.ok(setCookies(response.headers).get('session')!.attributes.includes('HttpOnly'));
    const me = await api.request('GET', '/api/auth/me', { token: jwt });
    assert.equal((me.body.data as { email: string }).email, profile.email);
    assert.equal(decodeJwt(jwt).role, 'tester');
  });

  it('signs the same identity in again as the same user and updates the user record', async () => {
    const profile = account();
    first.signInAs(profile);
    const one = await throughProvider();
    const firstJwt = cookieValue((await callback(one.callback, one.stateCookie)).headers, 'session');
    first.signInAs({ ...profile, name: 'Ada Renamed' });
    const two = await throughProvider();
    const secondJwt = cookieValue((await callback(two.callback, two.stateCookie)).headers, 'session');
    assert.equal(decodeJwt(secondJwt).sub, decodeJwt(firstJwt).sub);
    const me = await api.request('GET', '/api/auth/me', { token: secondJwt });
    assert.equal((me.body.data as { displayName: string }).displayName, 'Ada Renamed');
  });

  it('runs the same flow with the second configured provider', async () => {
    const profile = account();
    second.signInAs(profile);
    const { callback: url, stateCookie } = await throughProvider('idp-two');
    const response = await callback(url, stateCookie);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), `${BASE_URL}/dashboard`);
    assert.equal(second.tokenRequests.at(-1)?.get('client_id'), second.clientId);
  });

  it('creates a business account with its organization when the flow started with role=business', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider('idp-one', '?role=business');
    const jwt = cookieValue((await callback(url, stateCookie)).headers, 'session');
    const claims = decodeJwt(jwt);
    assert.equal(claims.role, 'business');
    assert.ok(claims.organization_id);
  });

  it('sends the PKCE verifier whose S256 hash is the challenge (the provider refuses otherwise)', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider();
    assert.equal((await callback(url, stateCookie)).status, 302);
    const verifier = first.tokenRequests.at(-1)?.get('code_verifier') ?? '';
    assert.match(verifier, /^[A-Za-z0-9_-]{43,128}$/);
  });

  it('redirects to {base_url}/login?error=<error> when the provider sends an error', async () => {
    const start = await fetch(`${api.url}/api/auth/oauth/idp-one`, { redirect: 'manual' });
    const state = new URL(start.headers.get('Location')!).searchParams.get('state')!;
    const response = await callback(`/api/auth/callback?error=access_denied&state=${state}`);
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('Location'), `${BASE_URL}/login?error=access_denied`);
    assert.equal(setCookies(response.headers).get('session'), undefined);
  });

  it('answers 400 when the state is missing', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider();
    url.searchParams.delete('state');
    const response = await callback(url, stateCookie);
    assert.equal(response.status, 400);
    assert.match(await errorOf(response), /state/);
  });

  it('answers 400 when the state does not belong to this browser (no or another state cookie)', async () => {
    first.signInAs(account());
    const { callback: url } = await throughProvider();
    const other = await throughProvider();
    assert.equal((await callback(url)).status, 400);
    assert.equal((await callback(url, other.stateCookie)).status, 400);
  });

  it('answers 400 for a replayed state (each state works once)', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider();
    assert.equal((await callback(url, stateCookie)).status, 302);
    assert.equal((await callback(url, stateCookie)).status, 400);
  });

  it('answers 400 for a state older than 10 minutes', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider();
    clock.advance(10 * MINUTE + 1000);
    assert.equal((await callback(url, stateCookie)).status, 400);
  });

  it('answers 401 when the provider rejects the code', async () => {
    first.signInAs(account());
    const { callback: url, stateCookie } = await throughProvider();
    url.searchParams.set('code', 'forged-code');
    const response = await callback(url, stateCookie);
    assert.equal(response.status, 401);
    assert.equal(setCookies(response.headers).get('session'), undefined);
  });

  it('answers 403 when the provider account is suspended', async () => {
    first.signInAs(account({ suspended: true }));
    const { callback: url, stateCookie } = await throughProvider();
    const response = await callback(url, stateCookie);
    assert.equal(response.status, 403);
    assert.match(await errorOf(response), /suspended/);
  });

  it('answers 403 when the linked local account is suspended', async () => {
    const user = await createPasswordUser('tester', 'suspended');
    first.signInAs(account({ email: user.email }));
    const { callback: url, stateCookie } = await throughProvider();
    assert.equal((await callback(url, stateCookie)).status, 403);
  });

  it('links a provider-verified email to the existing account; an unverified one gets 403', async () => {
    const user = await createPasswordUser('business');
    first.signInAs(account({ email: user.email, email_verified: false }));
    const unverified = await throughProvider();
    assert.equal((await callback(unverified.callback, unverified.stateCookie)).status, 403);
    first.signInAs(account({ email: user.email }));
    const verified = await throughProvider();
    const jwt = cookieValue((await callback(verified.callback, verified.stateCookie)).headers, 'session');
    assert.equal(decodeJwt(jwt).sub, user.id);
    const identities = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('user_identities').select('provider').where('user_id', '=', user.id).execute(),
    );
    assert.deepEqual(identities, [{ provider: 'idp-one' }]);
  });

  it('answers 404 for a provider that is not configured', async () => {
    const response = await fetch(`${api.url}/api/auth/oauth/nope`, { redirect: 'manual' });
    assert.equal(response.status, 404);
  });
});
