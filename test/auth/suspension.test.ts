import assert from 'node:assert/strict';
import { REVOKED_LOGIN_CACHE_MS } from '../../api/auth/revoked-logins.ts';
import { asSystem, asUser } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { cookieValue, createPasswordUser, TestClock, type PasswordUser } from './helpers.ts';

/** What an admin (or the system) writes to suspend an account or a tester's profile. */
const suspendAccount = (userId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.updateTable('users').set({ status: 'suspended' }).where('id', '=', userId).execute(),
  );

const openLogins = (userId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('refresh_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute(),
  );

describe('suspending an account ends its logins (users.status, 0027)', () => {
  const clock = new TestClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ now: clock.now, worker: false });
  });
  after(() => api.stop());

  async function logIn(user: PasswordUser): Promise<{ jwt: string; refresh: string }> {
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.status, 200);
    return {
      jwt: cookieValue(login.headers, 'session'),
      refresh: cookieValue(login.headers, 'refresh_token'),
    };
  }

  const me = (jwt: string) => api.request('GET', '/api/auth/me', { token: jwt });

  it("a suspended user's session JWT is refused within 60 s (it would otherwise live 24 h)", async () => {
    const user = await createPasswordUser('business');
    const { jwt } = await logIn(user);
    assert.equal((await me(jwt)).status, 200); // this instance now remembers the login as live

    await suspendAccount(user.id);
    // Other instances learn within their 60 s cache window; no sooner is promised.
    clock.advance(REVOKED_LOGIN_CACHE_MS + 1000);
    const refused = await me(jwt);
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, {
      success: false,
      data: null,
      error: 'Session ended: log in again',
      metadata: null,
    });
  });

  it('every login of the account ends, and its refresh tokens no longer renew', async () => {
    const user = await createPasswordUser('tester');
    const first = await logIn(user);
    const second = await logIn(user);
    assert.equal((await openLogins(user.id)).length, 2);

    await suspendAccount(user.id);
    assert.deepEqual(await openLogins(user.id), []);
    clock.advance(REVOKED_LOGIN_CACHE_MS + 1000);
    assert.equal((await me(first.jwt)).status, 401);
    assert.equal((await me(second.jwt)).status, 401);
    const renewed = await api.request('POST', '/api/auth/refresh', {
      headers: { Cookie: `refresh_token=${first.refresh}` },
    });
    assert.equal(renewed.status, 401);
  });

  it("suspending a tester's profile (0015 suspends the account with it) ends the logins too", async () => {
    const user = await createPasswordUser('tester');
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('tester_profiles')
        .values({ user_id: user.id, country: 'GB', devices: ['desktop'], status: 'active' })
        .execute(),
    );
    const { jwt } = await logIn(user);
    assert.equal((await me(jwt)).status, 200);

    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('tester_profiles').set({ status: 'suspended' }).where('user_id', '=', user.id).execute(),
    );
    clock.advance(REVOKED_LOGIN_CACHE_MS + 1000);
    assert.equal((await me(jwt)).status, 401);
  });

  it('an admin suspending through the user door ends the logins as well', async () => {
    const user = await createPasswordUser('tester');
    const admin = await createPasswordUser('admin');
    const { jwt } = await logIn(user);
    await asUser(testDatabase(), { sub: admin.id, role: 'admin', organization_id: null }, (tx) =>
      tx.updateTable('users').set({ status: 'suspended' }).where('id', '=', user.id).execute(),
    );
    assert.deepEqual(await openLogins(user.id), []);
    clock.advance(REVOKED_LOGIN_CACHE_MS + 1000);
    assert.equal((await me(jwt)).status, 401);
  });

  it('lifting the suspension does not bring the ended logins back: the user logs in again', async () => {
    const user = await createPasswordUser('business');
    const ended = await logIn(user);
    await suspendAccount(user.id);
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('users').set({ status: 'active' }).where('id', '=', user.id).execute(),
    );
    clock.advance(REVOKED_LOGIN_CACHE_MS + 1000);
    assert.equal((await me(ended.jwt)).status, 401);
    const fresh = await logIn(user);
    assert.equal((await me(fresh.jwt)).status, 200);
  });
});
