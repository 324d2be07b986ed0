import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { pino } from 'pino';
import { createApi, type Api } from '../../api/app.ts';
import { asSystem } from '../../db/doors.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { FacialEngineServer } from './facial-engine-server.ts';
import { at, recordingSession, setSessionStatus, storedRows } from './fixtures.ts';

interface SnapshotRow {
  frame_index: number;
  face_detected: boolean;
  emotion: string | null;
  confidences: Record<string, number>;
  action_units: Record<string, number>;
  attention_score: number;
}

const image = () => randomBytes(3000).toString('base64');
const snapshot = (frameIndex: number, data = image()) => ({
  frameIndex,
  timestamp: at(frameIndex),
  image: data,
  attentionScore: 0.7,
});

describe('POST /api/sessions/:id/snapshots (facial analysis engine)', () => {
  const engine = new FacialEngineServer();
  let api: Api;
  let url: string;
  let log = '';
  before(async () => {
    const engineUrl = await engine.start();
    const config = testConfig({
      FACIAL_ENGINE_URL: engineUrl,
      FACIAL_ENGINE_TOKEN: 'engine-secret',
      FACIAL_ENGINE_TIMEOUT_MS: '300',
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log += chunk.toString('utf8');
        done();
      },
    });
    api = createApi({
      config,
      db: serviceDatabase(),
      temporal: (await temporalEnvironment()).client,
      logger: pino({ level: 'trace' }, sink),
    });
    url = await api.listen(0, '127.0.0.1');
  });
  after(async () => {
    await api.stop();
    await engine.stop();
  });

  async function post(token: string, sessionId: string, batch: unknown[]) {
    const response = await fetch(`${url}/api/sessions/${sessionId}/snapshots`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Test-Token': token },
      body: JSON.stringify({ batch }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { data: unknown; error: string | null },
    };
  }

  it('sends each image to the engine and stores emotion, confidences and Action Units', async () => {
    const s = await recordingSession();
    engine.behaviour = {
      kind: 'face',
      emotions: { neutral: 0.2, confusion: 0.7, happy: 0.1 },
      actionUnits: { AU04: 0.8, AU12: 0.1 },
    };
    const sent = [snapshot(0), snapshot(1)];
    const response = await post(s.testToken, s.sessionId, sent);
    assert.equal(response.status, 200, response.body.error ?? '');
    assert.deepEqual(response.body.data, {
      sessionId: s.sessionId,
      accepted: 2,
      rejected: 0,
      rejections: [],
      signals: { recordFacial: false, recordVoice: false, requireThinkAloud: false, recordScreen: false },
      nextFrameIndex: 2,
      nextSegmentIndex: 0,
      nextChunk: 0,
    });
    assert.ok(sent.every((item) => engine.images.includes(item.image)));
    assert.equal(engine.authorizations.at(-1), 'Token engine-secret');
    const rows = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.equal(rows.length, 2);
    assert.equal(rows[0]!.face_detected, true);
    assert.equal(rows[0]!.emotion, 'confusion');
    assert.deepEqual(rows[0]!.action_units, { AU04: 0.8, AU12: 0.1 });
    assert.equal(rows[0]!.confidences.confusion, 0.7);
  });

  it('never stores or logs the image', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'error', status: 500 };
    const data = image();
    const response = await post(s.testToken, s.sessionId, [
      snapshot(0, data),
      { frameIndex: 'x', image: data },
    ]);
    assert.equal(response.status, 200);
    const { rows } = await asSystem(testDatabase(), (tx) =>
      sql<{
        row: string;
      }>`select row_to_json(f)::text as row from facial_snapshots f where session_id = ${s.sessionId}`.execute(
        tx,
      ),
    );
    assert.equal(rows.length, 1);
    assert.ok(!rows[0]!.row.includes(data.slice(0, 40)), 'the stored row holds the image');
    assert.ok(log.includes('facial engine unavailable'), 'the failure is logged');
    assert.ok(!log.includes(data.slice(0, 40)), 'the log holds the image');
    assert.ok(!JSON.stringify(response.body).includes(data.slice(0, 40)), 'the answer echoes the image');
  });

  it('no face found: stored with face_detected = false and no emotion', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'no_face' };
    assert.equal((await post(s.testToken, s.sessionId, [snapshot(0)])).status, 200);
    const [row] = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.equal(row!.face_detected, false);
    assert.equal(row!.emotion, null);
  });

  it('engine erroring: emotion = null, face_detected = false, and the request succeeds', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'error', status: 503 };
    const response = await post(s.testToken, s.sessionId, [snapshot(0), snapshot(1)]);
    assert.equal(response.status, 200);
    const rows = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.deepEqual(
      rows.map((row) => [row.face_detected, row.emotion, row.attention_score]),
      [
        [false, null, 0.7],
        [false, null, 0.7],
      ],
    );
  });

  it('engine timing out: stored unanalysed, and the rest of the batch is not sent to the dead engine', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'hang' };
    const before = engine.images.length;
    const batch = Array.from({ length: 12 }, (_, i) => snapshot(i));
    const response = await post(s.testToken, s.sessionId, batch);
    assert.equal(response.status, 200);
    assert.equal((response.body.data as { accepted: number }).accepted, 12);
    // At most one request per lane was in flight when the first timed out.
    assert.ok(engine.images.length - before <= 4, `${engine.images.length - before} images sent`);
    const rows = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.equal(rows.length, 12);
    assert.ok(rows.every((row) => !row.face_detected && row.emotion === null));
  });

  it('engine down (connection refused): stored unanalysed, and the request succeeds', async () => {
    const s = await recordingSession();
    const down = createApi({
      config: testConfig({ FACIAL_ENGINE_URL: 'http://127.0.0.1:9' }),
      db: serviceDatabase(),
      temporal: (await temporalEnvironment()).client,
      logger: pino({ level: 'silent' }),
    });
    const downUrl = await down.listen(0, '127.0.0.1');
    try {
      const response = await fetch(`${downUrl}/api/sessions/${s.sessionId}/snapshots`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Test-Token': s.testToken },
        body: JSON.stringify({ batch: [snapshot(0)] }),
      });
      assert.equal(response.status, 200);
    } finally {
      await down.stop();
    }
    const [row] = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.equal(row!.face_detected, false);
    assert.equal(row!.emotion, null);
  });

  it('a retried snapshot (same frameIndex) is stored once', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'no_face' };
    assert.equal((await post(s.testToken, s.sessionId, [snapshot(3)])).status, 200);
    const retry = await post(s.testToken, s.sessionId, [snapshot(3)]);
    assert.equal((retry.body.data as { accepted: number }).accepted, 1);
    assert.equal((await storedRows('facial_snapshots', s.sessionId)).length, 1);
  });

  it('a completed session answers 409 without calling the engine', async () => {
    const s = await recordingSession();
    await setSessionStatus(s.sessionId, 'completed');
    const before = engine.images.length;
    const response = await post(s.testToken, s.sessionId, [snapshot(0)]);
    assert.equal(response.status, 409);
    assert.match(response.body.error!, /completed/);
    assert.equal(engine.images.length, before);
  });

  it('rejects an item without image or with an attentionScore outside 0-1, naming the field', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'no_face' };
    const { image: _image, ...withoutImage } = snapshot(0);
    const response = await post(s.testToken, s.sessionId, [
      withoutImage,
      { ...snapshot(1), attentionScore: 1.5 },
    ]);
    const data = response.body.data as { rejections: { index: number; reason: string }[] };
    assert.deepEqual(
      data.rejections.map((r) => [r.index, r.reason.split(':')[0]]),
      [
        [0, 'image'],
        [1, 'attentionScore'],
      ],
    );
  });

  it("stores frames analysed on the tester's machine as they came, without calling the engine", async () => {
    const s = await recordingSession();
    const before = engine.images.length;
    const frame = {
      frameIndex: 0,
      timestamp: at(0),
      emotions: { neutral: 0.3, sad: 0.6, happy: 0.1 },
      attentionScore: 0.9,
      gazeX: 0.4,
      gazeY: 0.6,
    };
    const noFace = { frameIndex: 1, timestamp: at(1), faceDetected: false, attentionScore: 0 };
    const response = await post(s.testToken, s.sessionId, [frame, noFace]);
    assert.equal(response.status, 200, response.body.error ?? '');
    assert.deepEqual(response.body.data, {
      sessionId: s.sessionId,
      accepted: 2,
      rejected: 0,
      rejections: [],
      signals: { recordFacial: false, recordVoice: false, requireThinkAloud: false, recordScreen: false },
      nextFrameIndex: 2,
      nextSegmentIndex: 0,
      nextChunk: 0,
    });
    assert.equal(engine.images.length, before, 'a frame without an image went to the engine');
    const rows = await storedRows<SnapshotRow & { gaze_x: number | null }>('facial_snapshots', s.sessionId);
    assert.deepEqual(
      rows.map((row) => [row.frame_index, row.face_detected, row.emotion, row.attention_score, row.gaze_x]),
      [
        [0, true, 'sad', 0.9, 0.4],
        [1, false, null, 0, null],
      ],
    );
    assert.deepEqual(rows[0]!.confidences, frame.emotions);
  });

  it('keeps the batch order when images and analysed frames are mixed', async () => {
    const s = await recordingSession();
    engine.behaviour = { kind: 'face', emotions: { happy: 1 }, actionUnits: {} };
    const frame = { frameIndex: 1, timestamp: at(1), emotions: { angry: 1 }, attentionScore: 0.5 };
    const response = await post(s.testToken, s.sessionId, [snapshot(0), frame, snapshot(2)]);
    assert.equal(response.status, 200, response.body.error ?? '');
    const rows = await storedRows<SnapshotRow>('facial_snapshots', s.sessionId);
    assert.deepEqual(
      rows.map((row) => [row.frame_index, row.emotion]),
      [
        [0, 'happy'],
        [1, 'angry'],
        [2, 'happy'],
      ],
    );
  });

  it('rejects a frame whose emotions do not sum to 1, and a faceDetected other than false', async () => {
    const s = await recordingSession();
    const response = await post(s.testToken, s.sessionId, [
      { frameIndex: 0, timestamp: at(0), emotions: { happy: 0.5 }, attentionScore: 0.5 },
      { frameIndex: 1, timestamp: at(1), faceDetected: true, attentionScore: 0.5 },
      { frameIndex: 2, timestamp: at(2), faceDetected: false },
    ]);
    const data = response.body.data as { rejections: { index: number; reason: string }[] };
    assert.deepEqual(
      data.rejections.map((r) => [r.index, r.reason.split(':')[0]]),
      [
        [0, 'emotions'],
        [1, 'faceDetected'],
        [2, 'attentionScore'],
      ],
    );
  });

  it("answers which signals the session's study records; an empty batch also its tasks and prototype", async () => {
    const s = await recordingSession({ tasks: 2 });
    await asSystem(testDatabase(), async (tx) => {
      await sql`update studies set record_facial = true, require_think_aloud = true
          where id = (select study_id from sessions where id = ${s.sessionId})`.execute(tx);
      await sql`insert into task_attempts (session_id, task_id, started_at)
          select ${s.sessionId}, id, '2026-01-01T10:00:00Z' from study_tasks
          where position = 1 and study_id = (select study_id from sessions where id = ${s.sessionId})`.execute(
        tx,
      );
    });
    const response = await post(s.testToken, s.sessionId, []);
    assert.equal(response.status, 200, response.body.error ?? '');
    const start = {
      sessionId: s.sessionId,
      accepted: 0,
      rejected: 0,
      rejections: [],
      signals: { recordFacial: true, recordVoice: false, requireThinkAloud: true, recordScreen: false },
    };
    assert.deepEqual(response.body.data, {
      ...start,
      nextFrameIndex: 0,
      nextSegmentIndex: 0,
      nextChunk: 0,
      // The tester's view of the tasks: never their success criteria.
      tasks: [
        {
          order: 1,
          title: 'Task 1',
          description: 'Do 1',
          attempt: {
            state: 'in_progress',
            startedAt: '2026-01-01T10:00:00.000Z',
            endedAt: null,
            timeOnTaskSeconds: null,
            ease: null,
            reason: null,
          },
        },
        { order: 2, title: 'Task 2', description: 'Do 2', attempt: null },
      ],
      prototypeUrl: 'https://shop.example',
    });
    // A batch with items answers the signals alone: the tasks are the probe's.
    const frame = { frameIndex: 0, timestamp: at(0), faceDetected: false, attentionScore: 0 };
    const batch = await post(s.testToken, s.sessionId, [frame]);
    assert.deepEqual(batch.body.data, {
      ...start,
      accepted: 1,
      nextFrameIndex: 1,
      nextSegmentIndex: 0,
      nextChunk: 0,
    });
  });

  it('answers the next free frameIndex, from what is stored, so that a recorder never reuses one', async () => {
    const s = await recordingSession();
    const frame = (frameIndex: number) => ({
      frameIndex,
      timestamp: at(frameIndex),
      faceDetected: false,
      attentionScore: 0,
    });
    assert.equal(
      ((await post(s.testToken, s.sessionId, [frame(4), frame(2)])).body.data as { nextFrameIndex: number })
        .nextFrameIndex,
      5,
    );
    const probe = await post(s.testToken, s.sessionId, []);
    assert.equal((probe.body.data as { nextFrameIndex: number }).nextFrameIndex, 5);
    // The voice segments' next index too, from the segments stored through /voice.
    const voice = await fetch(`${url}/api/sessions/${s.sessionId}/voice`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Test-Token': s.testToken },
      body: JSON.stringify({
        batch: [
          {
            segmentIndex: 6,
            startTime: at(0),
            endTime: at(1),
            transcript: 'ok',
            sentiment: 'neutral',
            sentimentScore: 0,
          },
        ],
      }),
    });
    assert.equal(voice.status, 200, await voice.text());
    const after = await post(s.testToken, s.sessionId, []);
    assert.equal((after.body.data as { nextSegmentIndex: number }).nextSegmentIndex, 7);
  });
});
