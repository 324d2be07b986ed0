import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { createPrivacyActivities } from '../../activities/privacy/privacy-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { adminToken, waitFor } from '../sessions/fixtures.ts';
import { recordingSession, setSessionStatus, type RecordingSession } from './fixtures.ts';

// Screen recordings as DOM replays (issue 32): chunks of rrweb events through the test token's
// snapshots route, read by those who may read the session's report, erased on request and after
// their retention.

const T0 = Date.UTC(2026, 0, 15, 10, 0, 0);

/** An rrweb full snapshot of a page with a field (its value as the recorder left it). */
const fullSnapshot = (at: number, fieldValue = '*****') => ({
  type: 2,
  timestamp: at,
  data: {
    node: {
      type: 0,
      id: 1,
      childNodes: [
        {
          type: 2,
          id: 2,
          tagName: 'html',
          attributes: {},
          childNodes: [
            {
              type: 2,
              id: 3,
              tagName: 'body',
              attributes: {},
              childNodes: [
                {
                  type: 2,
                  id: 4,
                  tagName: 'input',
                  attributes: { type: 'email', value: fieldValue },
                  childNodes: [],
                },
                {
                  type: 2,
                  id: 5,
                  tagName: 'input',
                  attributes: { type: 'checkbox', value: 'on' },
                  childNodes: [],
                },
              ],
            },
          ],
        },
      ],
    },
    initialOffset: { left: 0, top: 0 },
  },
});
const meta = (at: number) => ({
  type: 4,
  timestamp: at,
  data: { href: 'https://shop.example/', width: 1280, height: 800 },
});
const typed = (at: number, text = '***') => ({
  type: 3,
  timestamp: at,
  data: { source: 5, id: 4, text, isChecked: false },
});
const ticked = (at: number) => ({
  type: 3,
  timestamp: at,
  data: { source: 5, id: 5, text: 'on', isChecked: true },
});
const moved = (at: number) => ({
  type: 3,
  timestamp: at,
  data: { source: 1, positions: [{ x: 1, y: 2, id: 3, timeOffset: 0 }] },
});

const pack = (events: unknown[]) => gzipSync(Buffer.from(JSON.stringify(events))).toString('base64');
const chunkItem = (chunk: number, events: unknown[]) => ({ chunk, recording: pack(events) });

describe('screen recordings (DOM replay chunks)', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false, env: { RECORDING_MAX_SESSION_MB: '1' } });
  });
  after(() => api.stop());

  const post = (s: RecordingSession, batch: unknown[]) =>
    api.request('POST', `/api/sessions/${s.sessionId}/snapshots`, {
      body: { batch },
      headers: { 'X-Test-Token': s.testToken },
    });
  async function screenSession(): Promise<RecordingSession> {
    const s = await recordingSession();
    await asSystem(testDatabase(), (tx) =>
      sql`update studies set record_screen = true
          where id = (select study_id from sessions where id = ${s.sessionId})`.execute(tx),
    );
    return s;
  }
  const storedChunks = (sessionId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_recording_chunks')
        .selectAll()
        .where('session_id', '=', sessionId)
        .orderBy('seq')
        .execute(),
    );

  it('stores numbered chunks, measured, and says where the recorder goes on', async () => {
    const s = await screenSession();
    const first = [meta(T0), fullSnapshot(T0 + 5), typed(T0 + 900), ticked(T0 + 950)];
    const second = [moved(T0 + 2_000), typed(T0 + 3_500, '*****')];
    const response = await post(s, [chunkItem(0, first), chunkItem(1, second)]);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.data, {
      sessionId: s.sessionId,
      accepted: 2,
      rejected: 0,
      rejections: [],
      signals: { recordFacial: false, recordVoice: false, requireThinkAloud: false, recordScreen: true },
      nextFrameIndex: 0,
      nextSegmentIndex: 0,
      nextChunk: 2,
    });
    const rows = await storedChunks(s.sessionId);
    assert.deepEqual(
      rows.map((row) => [
        row.seq,
        row.started_at.getTime(),
        row.ended_at.getTime(),
        row.event_count,
        row.has_full_snapshot,
      ]),
      [
        [0, T0, T0 + 950, 4, true],
        [1, T0 + 2_000, T0 + 3_500, 2, false],
      ],
    );
    assert.equal(rows[0]!.byte_length, rows[0]!.data.length);
    // The probe tells a restarted recorder the next number.
    const probe = await post(s, []);
    assert.equal((probe.body.data as { nextChunk: number }).nextChunk, 2);
  });

  it('changes nothing when a chunk comes again, even with other contents', async () => {
    const s = await screenSession();
    const events = [meta(T0), fullSnapshot(T0 + 5)];
    assert.equal((await post(s, [chunkItem(0, events)])).status, 200);
    const again = await post(s, [chunkItem(0, [moved(T0 + 60_000)])]);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, { ...(again.body.data as object), accepted: 1, rejected: 0 });
    const rows = await storedChunks(s.sessionId);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.event_count, 2);
    assert.equal(rows[0]!.started_at.getTime(), T0);
  });

  it('rejects, item by item, chunks that are not masked rrweb events', async () => {
    const s = await screenSession();
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024, 32)).toString('base64');
    const response = await post(s, [
      { chunk: 0, recording: Buffer.from('not gzip').toString('base64') },
      chunkItem(1, [meta(T0), fullSnapshot(T0 + 5, 'alice@example.com')]),
      chunkItem(2, [meta(T0), fullSnapshot(T0 + 5), typed(T0 + 10, 'alice')]),
      chunkItem(3, [{ type: 3, timestamp: T0, data: { source: 9, id: 4, type: 0, commands: [] } }]),
      { chunk: 4, recording: bomb },
      chunkItem(5, []),
      chunkItem(6, [{ type: 'meta', timestamp: T0 }]),
      { chunk: -1, recording: pack([meta(T0)]) },
      chunkItem(7, [meta(T0), fullSnapshot(T0 + 5)]),
    ]);
    assert.equal(response.status, 200, response.text);
    const data = response.body.data as { accepted: number; rejections: { index: number; reason: string }[] };
    assert.equal(data.accepted, 1);
    assert.deepEqual(data.rejections, [
      { index: 0, reason: 'recording: must be a gzip-compressed JSON array of rrweb events' },
      { index: 1, reason: "recording: an unmasked input value: every field's value must be masked" },
      { index: 2, reason: "recording: an unmasked input event: the tester's typing must be masked" },
      { index: 3, reason: 'recording: a canvas drawing: canvases are not recorded' },
      { index: 4, reason: `recording: at most ${16 * 1024 * 1024} bytes once inflated` },
      { index: 5, reason: 'recording: must hold a non-empty JSON array of rrweb events' },
      { index: 6, reason: 'recording: every event needs an integer type and a timestamp' },
      { index: 7, reason: data.rejections[7]!.reason },
    ]);
    assert.match(data.rejections[7]!.reason, /^chunk: /);
    assert.deepEqual(
      (await storedChunks(s.sessionId)).map((row) => row.seq),
      [7],
    );
  });

  it('reads a chunk nested deeper than a call stack goes without failing the request', async () => {
    const s = await screenSession();
    const depth = 200_000;
    const nested = `${'{"type":0,"childNodes":['.repeat(depth)}${']}'.repeat(depth)}`;
    const json = `[{"type":2,"timestamp":${T0},"data":{"node":${nested}}}]`;
    const response = await post(s, [{ chunk: 0, recording: gzipSync(Buffer.from(json)).toString('base64') }]);
    assert.equal(response.status, 200, response.text);
    assert.equal((response.body.data as { accepted: number }).accepted, 1);
  });

  it('takes no chunk for a study that does not record the screen, and stops a recording at its limit', async () => {
    const off = await recordingSession();
    const refused = await post(off, [chunkItem(0, [meta(T0)])]);
    assert.deepEqual((refused.body.data as { rejections: unknown[] }).rejections, [
      { index: 0, reason: 'recording: this study does not record the screen (settings.recordScreen)' },
    ]);
    assert.equal((await storedChunks(off.sessionId)).length, 0);

    // Random text does not compress: each chunk is about 700 KB, and the limit here is 1 MB.
    const s = await screenSession();
    const bulky = (at: number) => [
      { type: 5, timestamp: at, data: { tag: 'x', payload: randomBytes(700_000).toString('base64') } },
    ];
    const first = await post(s, [chunkItem(0, bulky(T0))]);
    assert.equal((first.body.data as { rejected: number }).rejected, 0, first.text);
    const full = await post(s, [chunkItem(1, bulky(T0 + 1_000))]);
    assert.deepEqual((full.body.data as { rejections: unknown[] }).rejections, [
      { index: 0, reason: "recording: the session's recording is full (at most 1 MB)" },
    ]);
    assert.deepEqual(
      (await storedChunks(s.sessionId)).map((row) => row.seq),
      [0],
    );
  });

  it('two batches in flight at once never pass the limit together', async () => {
    const s = await screenSession();
    const bulky = (at: number) => [
      { type: 5, timestamp: at, data: { tag: 'x', payload: randomBytes(700_000).toString('base64') } },
    ];
    // Both requests wait on the recording's lock, held here, then go on together once it commits.
    const { both } = await testDatabase()
      .transaction()
      .execute(async (tx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`session-recording:${s.sessionId}`}, 0))`.execute(
          tx,
        );
        const both = Promise.all([
          post(s, [chunkItem(0, bulky(T0))]),
          post(s, [chunkItem(1, bulky(T0 + 1_000))]),
        ]);
        await waitFor(async () => {
          const { rows } = await sql<{ waiting: number }>`
            select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`.execute(
            testDatabase(),
          );
          return rows[0]!.waiting >= 2;
        });
        return { both }; // not awaited here: they finish only once this commits
      });
    const rejected = (await both).map((answer) => (answer.body.data as { rejected: number }).rejected);
    assert.deepEqual(rejected.sort(), [0, 1], 'one is stored, the other finds the recording full');
    assert.equal((await storedChunks(s.sessionId)).length, 1);
  });

  it('records only while the session runs', async () => {
    const s = await screenSession();
    await setSessionStatus(s.sessionId, 'completed');
    const response = await post(s, [chunkItem(0, [meta(T0)])]);
    assert.equal(response.status, 409, response.text);
    assert.equal((await storedChunks(s.sessionId)).length, 0);
  });

  it('is watched by the tester at once, by the business once the findings are confirmed, by nobody else', async () => {
    const s = await screenSession();
    const events = [meta(T0), fullSnapshot(T0 + 5), typed(T0 + 900)];
    await post(s, [chunkItem(0, events), chunkItem(1, [moved(T0 + 2_000)])]);
    const business = await sessionToken(s.business.claims);
    const stranger = await sessionToken(await createTester());

    const list = await api.request('GET', `/api/sessions/${s.sessionId}/recording`, { token: s.jwt });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.data, {
      sessionId: s.sessionId,
      retentionDays: 90,
      chunks: [
        {
          chunk: 0,
          startedAt: new Date(T0).toISOString(),
          endedAt: new Date(T0 + 900).toISOString(),
          eventCount: 3,
          hasFullSnapshot: true,
          bytes: (await storedChunks(s.sessionId))[0]!.byte_length,
        },
        {
          chunk: 1,
          startedAt: new Date(T0 + 2_000).toISOString(),
          endedAt: new Date(T0 + 2_000).toISOString(),
          eventCount: 1,
          hasFullSnapshot: false,
          bytes: (await storedChunks(s.sessionId))[1]!.byte_length,
        },
      ],
    });
    const chunk = await api.request('GET', `/api/sessions/${s.sessionId}/recording/0`, { token: s.jwt });
    assert.equal(chunk.status, 200, chunk.text);
    assert.deepEqual((chunk.body.data as { events: unknown }).events, events);
    const missing = await api.request('GET', `/api/sessions/${s.sessionId}/recording/9`, { token: s.jwt });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Recording chunk not found');

    // The business waits for the tester's confirmation; a stranger does not see the session at all.
    const early = await api.request('GET', `/api/sessions/${s.sessionId}/recording/0`, { token: business });
    assert.equal(early.status, 403, early.text);
    assert.match(early.body.error ?? '', /once the tester has confirmed the findings/);
    assert.equal(
      (await api.request('GET', `/api/sessions/${s.sessionId}/recording`, { token: stranger })).status,
      404,
    );
    // Admins read every session's recording, confirmed or not.
    const asAdmin = await api.request('GET', `/api/sessions/${s.sessionId}/recording/0`, {
      token: await adminToken(),
    });
    assert.equal(asAdmin.status, 200, asAdmin.text);
    // The test token reaches the recording routes no more than any other.
    const withTestToken = await api.request('GET', `/api/sessions/${s.sessionId}/recording`, {
      headers: { 'X-Test-Token': s.testToken },
    });
    assert.equal(withTestToken.status, 403);

    for (const status of ['completed', 'analyzing', 'analyzed'] as const)
      await setSessionStatus(s.sessionId, status);
    await asSystem(testDatabase(), (tx) =>
      sql`update sessions set status = 'confirmed', notes_confirmed = true, notes_confirmed_at = now(),
            confirmed_at = now() where id = ${s.sessionId}`.execute(tx),
    );
    const confirmed = await api.request('GET', `/api/sessions/${s.sessionId}/recording/0`, {
      token: business,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
  });

  it("is erased at the tester's request, not the business's", async () => {
    const s = await screenSession();
    await post(s, [chunkItem(0, [meta(T0), fullSnapshot(T0 + 5)]), chunkItem(1, [moved(T0 + 2_000)])]);
    const business = await sessionToken(s.business.claims);
    const refused = await api.request('DELETE', `/api/sessions/${s.sessionId}/recording`, {
      token: business,
    });
    assert.equal(refused.status, 403, refused.text);
    assert.equal((await storedChunks(s.sessionId)).length, 2);
    const erased = await api.request('DELETE', `/api/sessions/${s.sessionId}/recording`, { token: s.jwt });
    assert.equal(erased.status, 200, erased.text);
    assert.deepEqual(erased.body.data, { sessionId: s.sessionId, erasedChunks: 2 });
    assert.equal((await storedChunks(s.sessionId)).length, 0);
    const list = await api.request('GET', `/api/sessions/${s.sessionId}/recording`, { token: s.jwt });
    assert.deepEqual((list.body.data as { chunks: unknown[] }).chunks, []);
  });

  it('is erased whole once its last chunk is older than the retention', async () => {
    const expired = await screenSession();
    const kept = await screenSession();
    await post(expired, [chunkItem(0, [meta(T0)]), chunkItem(1, [meta(T0 + 1)])]);
    await post(kept, [chunkItem(0, [meta(T0)]), chunkItem(1, [meta(T0 + 1)])]);
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    await asSystem(testDatabase(), async (tx) => {
      await tx
        .updateTable('session_recording_chunks')
        .set({ received_at: daysAgo(31) })
        .where('session_id', 'in', [expired.sessionId, kept.sessionId])
        .execute();
      // One chunk of `kept` came in recently: the recording is kept whole.
      await tx
        .updateTable('session_recording_chunks')
        .set({ received_at: daysAgo(29) })
        .where('session_id', '=', kept.sessionId)
        .where('seq', '=', 1)
        .execute();
    });
    // A picture replayed from each recording (a finding's moment): it goes with its recording only.
    const picture = (sessionId: string) =>
      asSystem(testDatabase(), async (tx) => {
        const note = await tx
          .insertInto('session_notes')
          .values({ session_id: sessionId, content: 'A control did not respond', author_kind: 'agent' })
          .returning('id')
          .executeTakeFirstOrThrow();
        await tx
          .insertInto('finding_screenshots')
          .values({
            session_id: sessionId,
            note_id: note.id,
            source: 'replay',
            png: Buffer.from('png'),
            width: 10,
            height: 10,
            alt_text: 'A replayed moment',
            moment: new Date(T0),
          })
          .execute();
      });
    await picture(expired.sessionId);
    await picture(kept.sessionId);
    const pictureOf = (sessionId: string) =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('finding_screenshots')
          .select(['source', 'gap', 'png'])
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow(),
      );
    const activities = createPrivacyActivities({ db: serviceDatabase(), recordingRetentionDays: 30 });
    const erased = await activities.eraseExpiredRecordings({ limit: 1000 });
    assert.ok(erased.chunks >= 2, JSON.stringify(erased));
    assert.equal((await storedChunks(expired.sessionId)).length, 0);
    assert.equal((await storedChunks(kept.sessionId)).length, 2);
    assert.deepEqual(await pictureOf(expired.sessionId), {
      source: 'none',
      gap: 'recording_erased',
      png: null,
    });
    assert.equal((await pictureOf(kept.sessionId)).source, 'replay');
  });
});
