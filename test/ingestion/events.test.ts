import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { event, recordingSession, setSessionStatus, storedRows } from './fixtures.ts';

interface BatchAnswer {
  sessionId: string;
  accepted: number;
  rejected: number;
  rejections: { index: number; reason: string }[];
}

describe('POST /api/data/events', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  const post = (token: string, sessionId: string, batch: unknown[]) =>
    api.request('POST', '/api/data/events', { token, body: { sessionId, batch } });

  it('stores a valid batch and reports sessionId, accepted, rejected and rejections', async () => {
    const s = await recordingSession();
    const batch = [event({}, 1), event({ eventType: 'scroll', scrollY: 640, x: undefined, y: undefined }, 2)];
    const response = await post(s.jwt, s.sessionId, batch);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, {
      sessionId: s.sessionId,
      accepted: 2,
      rejected: 0,
      rejections: [],
    });
    const rows = await storedRows<{ event_type: string; scroll_y: number | null; viewport_width: number }>(
      'session_events',
      s.sessionId,
    );
    assert.deepEqual(
      rows.map((row) => [row.event_type, row.scroll_y, row.viewport_width]),
      [
        ['click', null, 1280],
        ['scroll', 640, 1280],
      ],
    );
  });

  it('rejects each invalid item alone, with its index and a reason naming the field', async () => {
    const s = await recordingSession();
    const batch = [
      event({}, 1),
      event({ targetSelector: undefined }, 2),
      event({ eventType: 'hover' }, 3),
      event({ timestamp: '2026-02-30T10:00:00Z' }, 4),
      event({ viewport: { width: 0, height: 800 } }, 5),
      'not an object',
      event({}, 6),
    ];
    const response = await post(s.jwt, s.sessionId, batch);
    assert.equal(response.status, 200, response.text);
    const data = response.body.data as BatchAnswer;
    assert.equal(data.accepted, 2);
    assert.equal(data.rejected, 5);
    assert.deepEqual(
      data.rejections.map((r) => r.index),
      [1, 2, 3, 4, 5],
    );
    assert.equal(data.rejections[0]!.reason, 'targetSelector: Required');
    assert.match(data.rejections[1]!.reason, /^eventType: /);
    assert.match(data.rejections[2]!.reason, /^timestamp: /);
    assert.match(data.rejections[3]!.reason, /^viewport\.width: /);
    assert.match(data.rejections[4]!.reason, /^item: /);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 2);
  });

  it('a retried batch (identical events) is not stored twice and counts as accepted', async () => {
    const s = await recordingSession();
    const batch = [
      event({}, 1),
      event({ eventType: 'focus', x: undefined, y: undefined, viewport: undefined }, 2),
    ];
    assert.equal((await post(s.jwt, s.sessionId, batch)).status, 200);
    const retry = await post(s.jwt, s.sessionId, [...batch, event({}, 3)]);
    assert.equal(retry.status, 200, retry.text);
    assert.equal((retry.body.data as BatchAnswer).accepted, 3);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 3);
  });

  it('writes a 1,000-item batch with one INSERT statement, not one per item', async () => {
    const s = await recordingSession();
    // A statement-level trigger counts INSERT statements on the table during this test only.
    await sql`create sequence if not exists test_ingestion_inserts`.execute(testDatabase());
    await sql`create or replace function app.test_count_insert() returns trigger language plpgsql
              security definer as $$ begin perform nextval('public.test_ingestion_inserts'); return null; end $$`.execute(
      testDatabase(),
    );
    await sql`create trigger test_count_insert after insert on session_events
              for each statement execute function app.test_count_insert()`.execute(testDatabase());
    try {
      const before = await sql<{ n: string }>`select nextval('test_ingestion_inserts') as n`.execute(
        testDatabase(),
      );
      const batch = Array.from({ length: 1000 }, (_, i) => event({ x: i }, i % 60));
      const response = await post(s.jwt, s.sessionId, batch);
      assert.equal(response.status, 200, response.text);
      assert.equal((response.body.data as BatchAnswer).accepted, 1000);
      const after = await sql<{ n: string }>`select nextval('test_ingestion_inserts') as n`.execute(
        testDatabase(),
      );
      assert.equal(
        Number(after.rows[0]!.n) - Number(before.rows[0]!.n),
        2,
        'one INSERT between the two reads',
      );
      assert.equal((await storedRows('session_events', s.sessionId)).length, 1000);
    } finally {
      await sql`drop trigger test_count_insert on session_events`.execute(testDatabase());
      await sql`drop function app.test_count_insert()`.execute(testDatabase());
      await sql`drop sequence test_ingestion_inserts`.execute(testDatabase());
    }
  });

  it('more than 1,000 items answers 413 and stores nothing', async () => {
    const s = await recordingSession();
    const response = await post(
      s.jwt,
      s.sessionId,
      Array.from({ length: 1001 }, (_, i) => event({ x: i })),
    );
    assert.equal(response.status, 413, response.text);
    assert.match(response.body.error!, /batch: at most 1000 items/);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 0);
  });

  it('takes bodies above 1 MB up to 5 MB (ingestion limit) and refuses larger ones with 413', async () => {
    const s = await recordingSession();
    const selector = `#${'a'.repeat(990)}`;
    const big = Array.from({ length: 1000 }, (_, i) => event({ targetSelector: selector, x: i }));
    const ok = await post(s.jwt, s.sessionId, big);
    assert.equal(ok.status, 200, ok.text);
    assert.equal((ok.body.data as BatchAnswer).accepted, 1000);
    const padding = 'x'.repeat(6 * 1024 * 1024);
    const tooBig = await api.request('POST', '/api/data/events', {
      token: s.jwt,
      body: { sessionId: s.sessionId, batch: [], padding },
    });
    assert.equal(tooBig.status, 413, tooBig.text);
  });

  it('a session that is not active or paused answers 409 naming its state', async () => {
    const s = await recordingSession();
    await setSessionStatus(s.sessionId, 'completed');
    const response = await post(s.jwt, s.sessionId, [event()]);
    assert.equal(response.status, 409, response.text);
    assert.match(response.body.error!, /completed/);
    assert.match(response.body.error!, /active or paused/);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 0);
  });

  it('a paused session still records', async () => {
    const s = await recordingSession();
    await setSessionStatus(s.sessionId, 'paused');
    const response = await post(s.jwt, s.sessionId, [event()]);
    assert.equal(response.status, 200, response.text);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 1);
  });

  it('business users of the owning organization may not write signals (403)', async () => {
    const s = await recordingSession();
    const response = await post(await sessionToken(s.business.claims), s.sessionId, [event()]);
    assert.equal(response.status, 403, response.text);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 0);
  });

  it('another tester cannot see the session (404) and writes nothing', async () => {
    const s = await recordingSession();
    const response = await post(await sessionToken(await createTester()), s.sessionId, [event()]);
    assert.equal(response.status, 404, response.text);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 0);
  });

  it('a body without batch answers 422 naming it', async () => {
    const s = await recordingSession();
    const response = await api.request('POST', '/api/data/events', {
      token: s.jwt,
      body: { sessionId: s.sessionId },
    });
    assert.equal(response.status, 422);
    assert.equal(response.body.error, 'batch: Required');
  });
});

describe('POST /api/sessions/:id/events (test token)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  const post = (token: string, sessionId: string, body: unknown) =>
    api.request('POST', `/api/sessions/${sessionId}/events`, { headers: { 'X-Test-Token': token }, body });

  it("records on the token's own session, with or without sessionId in the body", async () => {
    const s = await recordingSession();
    const first = await post(s.testToken, s.sessionId, { batch: [event({}, 1)] });
    assert.equal(first.status, 200, first.text);
    const second = await post(s.testToken, s.sessionId, { sessionId: s.sessionId, batch: [event({}, 2)] });
    assert.equal(second.status, 200, second.text);
    assert.equal((await storedRows('session_events', s.sessionId)).length, 2);
  });

  it('a sessionId in the body that differs from the path answers 422', async () => {
    const s = await recordingSession();
    const other = await recordingSession();
    const response = await post(s.testToken, s.sessionId, { sessionId: other.sessionId, batch: [event()] });
    assert.equal(response.status, 422);
    assert.match(response.body.error!, /^sessionId: /);
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_events')
        .select('id')
        .where('session_id', 'in', [s.sessionId, other.sessionId])
        .execute(),
    );
    assert.equal(stored.length, 0);
  });

  it('a test token cannot record on another session (403)', async () => {
    const s = await recordingSession();
    const other = await recordingSession();
    const response = await post(s.testToken, other.sessionId, { batch: [event()] });
    assert.equal(response.status, 403);
    assert.equal((await storedRows('session_events', other.sessionId)).length, 0);
  });
});
