import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem, asUser, type Claims } from '../../db/doors.ts';
import type { TesterStatus } from '../../lib/domain.ts';
import { createPasswordUser, type PasswordUser } from '../auth/helpers.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';

// One rule for a tester's two status fields (db/migrations/0015_data_hardening.sql): suspended in
// the profile (qualification) means suspended in the account (login), and the other way round.

async function tester(profileStatus: TesterStatus, quizPassed: boolean): Promise<PasswordUser> {
  const user = await createPasswordUser('tester');
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({
        user_id: user.id,
        country: 'DE',
        devices: ['desktop'],
        status: profileStatus,
        ...(quizPassed
          ? { quiz_score: 90, quiz_passed: true, quiz_completed_at: '2030-01-01T00:00:00Z' }
          : {}),
      })
      .execute(),
  );
  return user;
}

async function statuses(userId: string): Promise<{ account: string; profile: string }> {
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('users')
      .innerJoin('tester_profiles', 'tester_profiles.user_id', 'users.id')
      .select(['users.status as account', 'tester_profiles.status as profile'])
      .where('users.id', '=', userId)
      .executeTakeFirstOrThrow(),
  );
  return row;
}

describe("a tester's suspension: account status and profile status stay in step", () => {
  let admin: Claims;
  let api: TestApi;
  before(async () => {
    admin = { sub: (await createPasswordUser('admin')).id, role: 'admin' };
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  it('a profile stored as suspended suspends the account, and that tester cannot log in (403)', async () => {
    const user = await tester('suspended', true);
    assert.deepEqual(await statuses(user.id), { account: 'suspended', profile: 'suspended' });
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.status, 403);
  });

  it('an admin suspending the profile suspends the account; lifting it restores the login', async () => {
    const user = await tester('active', true);
    const setProfile = (status: TesterStatus) =>
      asUser(testDatabase(), admin, (tx) =>
        tx.updateTable('tester_profiles').set({ status }).where('user_id', '=', user.id).execute(),
      );
    await setProfile('suspended');
    assert.deepEqual(await statuses(user.id), { account: 'suspended', profile: 'suspended' });
    await setProfile('active');
    assert.deepEqual(await statuses(user.id), { account: 'active', profile: 'active' });
    const login = await api.request('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    });
    assert.equal(login.status, 200);
  });

  it('suspending the account suspends the profile; lifting it returns the profile to active or pending by its quiz', async () => {
    const qualified = await tester('active', true);
    const unqualified = await tester('pending', false);
    const setAccount = (id: string, status: 'active' | 'suspended') =>
      asSystem(testDatabase(), (tx) =>
        tx.updateTable('users').set({ status }).where('id', '=', id).execute(),
      );
    for (const user of [qualified, unqualified]) await setAccount(user.id, 'suspended');
    assert.deepEqual(await statuses(qualified.id), { account: 'suspended', profile: 'suspended' });
    assert.deepEqual(await statuses(unqualified.id), { account: 'suspended', profile: 'suspended' });
    for (const user of [qualified, unqualified]) await setAccount(user.id, 'active');
    assert.deepEqual(await statuses(qualified.id), { account: 'active', profile: 'active' });
    assert.deepEqual(await statuses(unqualified.id), { account: 'active', profile: 'pending' });
  });

  it('no tester anywhere in the database has one status suspended and the other not', async () => {
    const disagreeing = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('users')
        .innerJoin('tester_profiles', 'tester_profiles.user_id', 'users.id')
        .select('users.id')
        .where(sql<boolean>`(users.status = 'suspended') <> (tester_profiles.status = 'suspended')`)
        .execute(),
    );
    assert.deepEqual(disagreeing, []);
  });
});
