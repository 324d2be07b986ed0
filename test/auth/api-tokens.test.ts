import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../lib/secrets.ts';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { insertStudy, TestClock } from './helpers.ts';

describe('API bearer tokens (POST, GET /api/auth/tokens, DELETE /api/auth/tokens/:id)', () => {
  const clock = new TestClock();
  let api: TestApi;
  let business: BusinessFixture;
  let ownerJwt: string;
  before(async () => {
    api = await startTestApi({ now: clock.now, worker: false });
    business = await createBusiness('pro');
    ownerJwt = await sessionToken(business.claims, clock.now());
  });
  after(() => api.stop());

  /** Issues a token of `scope` as `issuerJwt` (the suite's pro-plan owner unless given). */
  async function issue(
    scope: 'read' | 'read_write' | 'admin',
    issuerJwt = ownerJwt,
  ): Promise<{ token: string; tokenId: string }> {
    const response = await api.request('POST', '/api/auth/tokens', {
      token: issuerJwt,
      body: { name: `${scope} token`, scope },
    });
    assert.equal(response.status, 201, response.text);
    return response.body.data as { token: string; tokenId: string };
  }

  it('shows the secret once: the list never does, and only its SHA-256 is stored', async () => {
    const { token, tokenId } = await issue('read');
    assert.match(token, /^uat_[A-Za-z0-9_-]{43}$/);
    const list = await api.request('GET', '/api/auth/tokens', { token: ownerJwt });
    assert.equal(list.status, 200);
    const listed = (list.body.data as { tokenId: string }[]).find((row) => row.tokenId === tokenId);
    assert.ok(listed);
    assert.ok(!list.text.includes(token));
    const stored = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('api_tokens').select('token_hash').where('id', '=', tokenId).executeTakeFirstOrThrow(),
    );
    assert.equal(stored.token_hash, sha256Hex(token));
  });

  it('GET /api/auth/tokens is paginated: page and limit, newest first, metadata with the total', async () => {
    const organization = await createBusiness('free');
    const jwt = await sessionToken(organization.claims, clock.now());
    const issued: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      clock.advance(1000); // distinct creation times: the order is the newest first
      const response = await api.request('POST', '/api/auth/tokens', {
        token: jwt,
        body: { name: `token ${n}`, scope: 'read' },
      });
      issued.push((response.body.data as { tokenId: string }).tokenId);
    }
    const pageOf = async (query: string) => {
      const response = await api.request('GET', `/api/auth/tokens${query}`, { token: jwt });
      assert.equal(response.status, 200, response.text);
      return {
        ids: (response.body.data as { tokenId: string }[]).map((row) => row.tokenId),
        metadata: response.body.metadata,
      };
    };
    const newestFirst = [...issued].reverse();
    assert.deepEqual(await pageOf('?page=1&limit=2'), {
      ids: newestFirst.slice(0, 2),
      metadata: { page: 1, limit: 2, total: 5 },
    });
    assert.deepEqual(await pageOf('?page=3&limit=2'), {
      ids: newestFirst.slice(4),
      metadata: { page: 3, limit: 2, total: 5 },
    });
    assert.deepEqual((await pageOf('')).metadata, { page: 1, limit: 20, total: 5 });
    const tooMany = await api.request('GET', '/api/auth/tokens?limit=101', { token: jwt });
    assert.equal(tooMany.status, 422);
  });

  it('only organization owners issue tokens: members and testers get 403', async () => {
    const member = await asSystem(testDatabase(), async (tx) => {
      const user = await tx
        .insertInto('users')
        .values({ email: `member-${randomUUID()}@example.com`, role: 'business' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('organization_memberships')
        .values({ organization_id: business.organizationId, user_id: user.id, member_role: 'member' })
        .execute();
      return user.id;
    });
    const memberJwt = await sessionToken(
      { sub: member, role: 'business', organization_id: business.organizationId },
      clock.now(),
    );
    const testerJwt = await sessionToken(await createTester(), clock.now());
    for (const token of [memberJwt, testerJwt]) {
      const response = await api.request('POST', '/api/auth/tokens', {
        token,
        body: { name: 'x', scope: 'read' },
      });
      assert.equal(response.status, 403);
    }
  });

  it('read scope: GET endpoints only', async () => {
    const { token } = await issue('read');
    assert.equal((await api.request('GET', '/api/jobs', { token })).status, 200);
    assert.equal((await api.request('POST', '/api/jobs', { token, body: {} })).status, 403);
    assert.equal((await api.request('PATCH', `/api/jobs/${randomUUID()}`, { token, body: {} })).status, 403);
    assert.equal((await api.request('DELETE', `/api/auth/tokens/${randomUUID()}`, { token })).status, 403);
  });

  it('read_write scope: GET, POST and PATCH, but not DELETE, PUT or token management', async () => {
    const { token } = await issue('read_write');
    assert.equal((await api.request('GET', '/api/jobs', { token })).status, 200);
    // Past the scope check the route itself answers: 422 for an empty body.
    assert.equal((await api.request('POST', '/api/jobs', { token, body: {} })).status, 422);
    assert.equal((await api.request('PATCH', `/api/jobs/${randomUUID()}`, { token, body: {} })).status, 422);
    assert.equal((await api.request('DELETE', `/api/auth/tokens/${randomUUID()}`, { token })).status, 403);
    assert.equal((await api.request('PUT', '/api/jobs', { token, body: {} })).status, 403);
    assert.equal((await api.request('GET', '/api/auth/tokens', { token })).status, 403);
  });

  it('admin scope: every method, token management included', async () => {
    const { token } = await issue('admin');
    assert.equal((await api.request('GET', '/api/auth/tokens', { token })).status, 200);
    assert.equal((await api.request('DELETE', `/api/auth/tokens/${randomUUID()}`, { token })).status, 404);
    assert.equal((await api.request('PUT', '/api/jobs', { token, body: {} })).status, 405);
  });

  it("acts only within its organization: another organization's study is not found", async () => {
    const { token } = await issue('admin');
    const own = await insertStudy(business.organizationId);
    const other = await insertStudy((await createBusiness()).organizationId);
    assert.equal((await api.request('GET', `/api/jobs/${own}`, { token })).status, 200);
    assert.equal((await api.request('GET', `/api/jobs/${other}`, { token })).status, 404);
  });

  it('billing and webhook management need the admin scope whatever the method, checked before routing', async () => {
    const [read, readWrite, admin] = await Promise.all([issue('read'), issue('read_write'), issue('admin')]);
    const noSuchBilling = '/api/billing/no-such-operation';
    const noSuchWebhook = '/api/webhook-endpoints/no/such/operation';
    // No route answers these paths: a session JWT gets routing's 404 ...
    assert.equal((await api.request('POST', noSuchBilling, { token: ownerJwt, body: {} })).status, 404);
    // ... so a 403 for a token below admin shows the scope check ran first.
    const adminOnly: [string, string][] = [
      ['POST', '/api/billing/checkout'],
      ['POST', '/api/billing/connect'],
      ['POST', '/api/billing/payout'],
      ['GET', '/api/billing/checkout'],
      ['POST', noSuchBilling],
      ['GET', '/api/webhook-endpoints'],
      ['POST', '/api/webhook-endpoints'],
      ['PATCH', `/api/webhook-endpoints/${randomUUID()}`],
      ['GET', noSuchWebhook],
    ];
    for (const [method, path] of adminOnly) {
      for (const { token } of [read, readWrite]) {
        const response = await api.request(method, path, { token, body: method === 'GET' ? undefined : {} });
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.match(response.body.error!, /scope/);
      }
    }
    // The admin scope passes the check; routing answers next.
    assert.equal((await api.request('POST', noSuchBilling, { token: admin.token, body: {} })).status, 404);
    assert.equal((await api.request('GET', noSuchWebhook, { token: admin.token })).status, 404);
    // Only those folders: a path that merely starts with the same letters is not admin-only.
    assert.equal((await api.request('GET', '/api/billingx', { token: readWrite.token })).status, 404);
  });

  it('stops working within 60 seconds once its issuer is no longer an owner of the organization', async () => {
    const organization = await createBusiness();
    const { token } = await issue('read', await sessionToken(organization.claims, clock.now()));
    assert.equal((await api.request('GET', '/api/jobs', { token })).status, 200); // cached here
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('organization_memberships')
        .set({ member_role: 'member' })
        .where('user_id', '=', organization.userId)
        .execute(),
    );
    const fresh = await startTestApi({ now: clock.now, worker: false });
    try {
      assert.equal(
        (await fresh.request('GET', '/api/jobs', { token })).status,
        401,
        'an instance without a cached answer',
      );
    } finally {
      await fresh.stop();
    }
    clock.advance(60_000);
    assert.equal(
      (await api.request('GET', '/api/jobs', { token })).status,
      401,
      'once the cached answer expires',
    );
  });

  it("stops working when its issuer's account is suspended", async () => {
    const organization = await createBusiness();
    const { token } = await issue('read', await sessionToken(organization.claims, clock.now()));
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('users').set({ status: 'suspended' }).where('id', '=', organization.userId).execute(),
    );
    assert.equal((await api.request('GET', '/api/jobs', { token })).status, 401);
  });

  it('answers 401 for an unknown token', async () => {
    const response = await api.request('GET', '/api/jobs', { token: `uat_${'x'.repeat(43)}` });
    assert.equal(response.status, 401);
  });

  it('a revoked token stops working at once here and within 60 seconds on every other instance', async () => {
    const other = await startTestApi({ now: clock.now, worker: false });
    try {
      const { token, tokenId } = await issue('read');
      assert.equal((await other.request('GET', '/api/jobs', { token })).status, 200); // cached there
      const revoked = await api.request('DELETE', `/api/auth/tokens/${tokenId}`, { token: ownerJwt });
      assert.equal(revoked.status, 200);
      assert.equal((await api.request('GET', '/api/jobs', { token })).status, 401);
      clock.advance(60_000);
      assert.equal((await other.request('GET', '/api/jobs', { token })).status, 401);
    } finally {
      await other.stop();
    }
  });
});
