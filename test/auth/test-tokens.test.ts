import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { sha256Hex } from '../../lib/secrets.ts';
import { issueTestToken } from '../../commands/sessions/test-token-delivery.ts';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { HOUR, insertStudy, MINUTE, TestClock } from './helpers.ts';

const FOUR_ENDPOINTS = [
  ['POST', '/api/sessions/:id/events'],
  ['POST', '/api/sessions/:id/snapshots'],
  ['POST', '/api/sessions/:id/voice'],
  ['PATCH', '/api/sessions/:id'],
] as const;

/** A session of a fresh study and tester, with its test token issued at `now`. */
async function sessionWithToken(now: Date): Promise<{ sessionId: string; token: string }> {
  const business = await createBusiness();
  const studyId = await insertStudy(business.organizationId);
  const tester = await createTester();
  return asSystem(testDatabase(), async (tx) => {
    const { rows } = await sql<{ id: string }>`
      insert into sessions (study_id, organization_id, tester_id)
      values (${studyId}, ${business.organizationId}, ${tester.sub}) returning id`.execute(tx);
    const sessionId = rows[0]!.id;
    const { token } = await issueTestToken(tx, sessionId, now);
    return { sessionId, token };
  });
}

describe('test tokens (X-Test-Token)', () => {
  const clock = new TestClock();
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ now: clock.now, worker: false });
  });
  after(() => api.stop());

  const call = (method: string, path: string, token: string) =>
    api.request(method, path, {
      headers: { 'X-Test-Token': token },
      body: method === 'GET' ? undefined : {},
    });

  it('is 48 hexadecimal characters, stored only as its SHA-256', async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    assert.match(token, /^[0-9a-f]{48}$/);
    const { rows } = await asSystem(testDatabase(), (tx) =>
      sql<{ test_token_hash: string }>`select test_token_hash from sessions where id = ${sessionId}`.execute(
        tx,
      ),
    );
    assert.equal(rows[0]!.test_token_hash, sha256Hex(token));
  });

  it('passes the four session endpoints of its own session', async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    for (const [method, path] of FOUR_ENDPOINTS) {
      const response = await call(method, path.replace(':id', sessionId), token);
      assert.ok(
        ![401, 403].includes(response.status),
        `${method} ${path}: ${response.status} ${response.text}`,
      );
    }
  });

  it('is refused (403) on the four endpoints of another session', async () => {
    const { token } = await sessionWithToken(clock.now());
    const other = await sessionWithToken(clock.now());
    for (const [method, path] of FOUR_ENDPOINTS) {
      assert.equal((await call(method, path.replace(':id', other.sessionId), token)).status, 403);
    }
  });

  it('is refused (403) on every other route of the API', async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    const others = api.api.routes.filter(
      (route) => !FOUR_ENDPOINTS.some(([method, path]) => route.method === method && route.path === path),
    );
    assert.ok(others.length > 10);
    for (const route of others) {
      const path = route.path.replace(/:(\w+)/g, sessionId);
      const response = await call(route.method, path, token);
      assert.equal(response.status, 403, `${route.method} ${route.path} answered ${response.status}`);
    }
    // Paths that merely resemble the four are refused too.
    assert.equal((await call('GET', `/api/sessions/${sessionId}`, token)).status, 403);
    assert.equal((await call('POST', `/api/sessions/${sessionId}/events/extra`, token)).status, 403);
  });

  it('answers 401 for an unknown or malformed token', async () => {
    const { sessionId } = await sessionWithToken(clock.now());
    const path = `/api/sessions/${sessionId}/events`;
    assert.equal((await call('POST', path, 'a'.repeat(48))).status, 401);
    assert.equal((await call('POST', path, 'not-hex')).status, 401);
  });

  it('expires 24 hours after it was issued', async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    const path = `/api/sessions/${sessionId}`;
    clock.advance(24 * HOUR - MINUTE);
    assert.ok(![401, 403].includes((await call('PATCH', path, token)).status));
    clock.advance(2 * MINUTE);
    assert.equal((await call('PATCH', path, token)).status, 401);
  });

  it('stops working when its session is cancelled or a new token is issued', async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    const path = `/api/sessions/${sessionId}`;
    const fresh = await asSystem(testDatabase(), (tx) => issueTestToken(tx, sessionId, clock.now()));
    assert.equal((await call('PATCH', path, token)).status, 401);
    assert.ok(![401, 403].includes((await call('PATCH', path, fresh.token)).status));
    await asSystem(testDatabase(), (tx) =>
      sql`update sessions set status = 'cancelled', cancelled_at = now() where id = ${sessionId}`.execute(tx),
    );
    assert.equal((await call('PATCH', path, fresh.token)).status, 401);
  });

  it("stops working while the session's tester is suspended (users.status)", async () => {
    const { sessionId, token } = await sessionWithToken(clock.now());
    const path = `/api/sessions/${sessionId}`;
    assert.ok(![401, 403].includes((await call('PATCH', path, token)).status));
    const setStatus = (status: 'active' | 'suspended') =>
      asSystem(testDatabase(), (tx) =>
        sql`update users set status = ${status}
            where id = (select tester_id from sessions where id = ${sessionId})`.execute(tx),
      );
    await setStatus('suspended');
    assert.equal((await call('PATCH', path, token)).status, 401);
    await setStatus('active');
    assert.ok(![401, 403].includes((await call('PATCH', path, token)).status));
  });
});
