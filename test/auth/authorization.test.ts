import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem, asUser } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { createPasswordUser } from './helpers.ts';

describe('authorization', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  it('admin endpoints answer 403 to tester and business tokens (session JWTs and admin-scope API tokens)', async () => {
    const adminRoutes = api.api.routes.filter((route) => route.path.startsWith('/api/admin/'));
    assert.ok(
      adminRoutes.some((route) => route.method === 'GET' && route.path === '/api/admin/testers'),
      'the admin routes exist (GET /api/admin/testers at least)',
    );
    const business = await createBusiness();
    const businessJwt = await sessionToken(business.claims);
    const testerJwt = await sessionToken(await createTester());
    const issued = await api.request('POST', '/api/auth/tokens', {
      token: businessJwt,
      body: { name: 'admin scope', scope: 'admin' },
    });
    const apiToken = (issued.body.data as { token: string }).token;
    for (const route of adminRoutes) {
      assert.deepEqual(route.roles, ['admin'], `${route.method} ${route.path} must be for admins only`);
      const path = route.path.replace(/:(\w+)/g, randomUUID());
      for (const token of [businessJwt, testerJwt, apiToken]) {
        const body = route.method === 'GET' ? undefined : {};
        const response = await api.request(route.method, path, { token, body });
        assert.equal(response.status, 403, `${route.method} ${route.path}`);
      }
    }
  });

  it('a route for businesses answers 403 to a tester', async () => {
    const testerJwt = await sessionToken(await createTester());
    const response = await api.request('POST', '/api/auth/tokens', {
      token: testerJwt,
      body: { name: 'x', scope: 'read' },
    });
    assert.equal(response.status, 403);
  });

  it('a session JWT signed with another key, or with alg none, answers 401', async () => {
    const tester = await createTester();
    const [header, payload] = (await sessionToken(tester)).split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    for (const token of [forged, none]) {
      assert.equal((await api.request('GET', '/api/auth/me', { token })).status, 401);
    }
  });
});

describe('row-level security on the authentication tables', () => {
  it('secrets (refresh, one-time tokens, OAuth states, lockout counters) are invisible through the user door', async () => {
    const user = await createPasswordUser('business');
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('refresh_tokens')
        .values({
          user_id: user.id,
          family_id: randomUUID(),
          token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
          created_at: new Date(),
          expires_at: new Date(Date.now() + 1000),
          family_expires_at: new Date(Date.now() + 1000),
        })
        .execute(),
    );
    const claims = { sub: user.id, role: 'business' as const, organization_id: null };
    const counts = await asUser(testDatabase(), claims, async (tx) => ({
      refresh: (await tx.selectFrom('refresh_tokens').select('id').execute()).length,
      oneTime: (await tx.selectFrom('one_time_tokens').select('id').execute()).length,
      states: (await tx.selectFrom('oauth_states').select('state_hash').execute()).length,
      failures: (await tx.selectFrom('login_failures').select('email').execute()).length,
    }));
    assert.deepEqual(counts, { refresh: 0, oneTime: 0, states: 0, failures: 0 });
  });

  it("an organization's owner sees its API tokens and no other organization's", async () => {
    const mine = await createBusiness();
    const theirs = await createBusiness();
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('api_tokens')
        .values(
          [mine, theirs].map((business) => ({
            organization_id: business.organizationId,
            created_by: business.userId,
            name: 'token',
            scope: 'read' as const,
            token_hash: randomUUID().replace(/-/g, '').padEnd(64, '0'),
            token_prefix: 'uat_x',
            created_at: new Date(),
          })),
        )
        .execute(),
    );
    const seen = await asUser(testDatabase(), mine.claims, (tx) =>
      tx.selectFrom('api_tokens').select('organization_id').execute(),
    );
    assert.deepEqual(seen, [{ organization_id: mine.organizationId }]);
  });
});
