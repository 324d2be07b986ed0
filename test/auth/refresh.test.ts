import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { cookieValue, createPasswordUser, DAY, setCookies, TestClock } from './helpers.ts';

describe('POST /api/auth/refresh and POST /api/auth/logout', () => {
  const clock = new TestClock();
  let api: TestApi;
  beforeEach(async () => {
    // A fresh app per test: every test moves the clock by days and makes its own login.
    api = await startTestApi({ now: clock.now, worker: false });
  });
  afterEach(() => api.stop());

  async function loginWithJwt(): Promise<{ refresh: string; jwt: string }> {
    const user = await createPasswordUser('tester');
    const response = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(response.status, 200);
    return {
      refresh: cookieValue(response.headers, 'refresh_token'),
      jwt: cookieValue(response.headers, 'session'),
    };
  }
  const login = async () => (await loginWithJwt()).refresh;
  const me = (jwt: string, on: TestApi = api) => on.request('GET', '/api/auth/me', { token: jwt });

  const refresh = (token: string) =>
    api.request('POST', '/api/auth/refresh', { headers: { Cookie: `refresh_token=${token}` } });

  it('issues a new session JWT and rotates the refresh token on every use', async () => {
    const first = await login();
    const response = await refresh(first);
    assert.equal(response.status, 200);
    const second = cookieValue(response.headers, 'refresh_token');
    assert.notEqual(second, first);
    const jwt = cookieValue(response.headers, 'session');
    assert.equal((await api.request('GET', '/api/auth/me', { token: jwt })).status, 200);
    assert.equal((await refresh(second)).status, 200);
  });

  it('reuse of a rotated refresh token revokes the whole family', async () => {
    const first = await login();
    const second = cookieValue((await refresh(first)).headers, 'refresh_token');
    const reused = await refresh(first);
    assert.equal(reused.status, 401);
    assert.match(reused.body.error!, /reuse/);
    const cleared = setCookies(reused.headers).get('refresh_token');
    assert.ok(cleared?.attributes.includes('Max-Age=0'));
    assert.equal((await refresh(second)).status, 401, 'the legitimate successor is revoked too');
  });

  it('expires after 7 days without use (sliding)', async () => {
    const token = await login();
    clock.advance(7 * DAY + 1000);
    const response = await refresh(token);
    assert.equal(response.status, 401);
    assert.match(response.body.error!, /expired/);
  });

  it('stays alive while used within every 7 days, but never beyond 30 days after login', async () => {
    let token = await login();
    for (const days of [6, 6, 6, 6, 5]) {
      clock.advance(days * DAY);
      const response = await refresh(token);
      assert.equal(response.status, 200);
      token = cookieValue(response.headers, 'refresh_token');
    }
    clock.advance(2 * DAY); // day 31: the family's absolute limit has passed
    assert.equal((await refresh(token)).status, 401);
  });

  it('answers 401 without a refresh cookie or with an unknown one', async () => {
    assert.equal((await api.request('POST', '/api/auth/refresh')).status, 401);
    assert.equal((await refresh('not-a-token')).status, 401);
  });

  it('logout revokes the refresh token and clears both cookies', async () => {
    const token = await login();
    const response = await api.request('POST', '/api/auth/logout', {
      headers: { Cookie: `refresh_token=${token}` },
    });
    assert.equal(response.status, 200);
    const cookies = setCookies(response.headers);
    assert.ok(cookies.get('session')?.attributes.includes('Max-Age=0'));
    assert.ok(cookies.get('refresh_token')?.attributes.includes('Max-Age=0'));
    assert.equal((await refresh(token)).status, 401);
  });

  it('logout also ends the session JWT of that login', async () => {
    const { refresh: token, jwt } = await loginWithJwt();
    assert.equal((await me(jwt)).status, 200);
    await api.request('POST', '/api/auth/logout', { headers: { Cookie: `refresh_token=${token}` } });
    const after = await me(jwt);
    assert.equal(after.status, 401);
    assert.match(after.body.error!, /ended/);
  });

  it('logout with only a Bearer JWT (no refresh cookie) ends that login', async () => {
    const { refresh: token, jwt } = await loginWithJwt();
    assert.equal((await api.request('POST', '/api/auth/logout', { token: jwt })).status, 200);
    assert.equal((await me(jwt)).status, 401);
    assert.equal((await refresh(token)).status, 401);
  });

  it('reuse detection ends the session JWTs issued to the family as well', async () => {
    const first = await login();
    const rotated = await refresh(first);
    const jwt = cookieValue(rotated.headers, 'session');
    assert.equal((await me(jwt)).status, 200);
    assert.equal((await refresh(first)).status, 401);
    assert.equal((await me(jwt)).status, 401);
  });

  it('another instance refuses the session JWT of an ended login within 60 seconds', async () => {
    const other = await startTestApi({ now: clock.now, worker: false });
    try {
      const { refresh: token, jwt } = await loginWithJwt();
      assert.equal((await me(jwt, other)).status, 200); // remembered there as a live login
      await api.request('POST', '/api/auth/logout', { headers: { Cookie: `refresh_token=${token}` } });
      clock.advance(60_000);
      assert.equal((await me(jwt, other)).status, 401);
    } finally {
      await other.stop();
    }
  });
});
