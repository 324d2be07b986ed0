import assert from 'node:assert/strict';
import { createPrivacyActivities } from '../../activities/privacy/privacy-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { voiceSegmentsForAnalysis } from '../../db/repositories/signals.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { frame, recordingSession, segment, setSessionStatus, storedRows } from './fixtures.ts';

interface BatchAnswer {
  accepted: number;
  rejected: number;
  rejections: { index: number; reason: string }[];
}

describe('POST /api/data/facial', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  const post = (token: string, sessionId: string, batch: unknown[]) =>
    api.request('POST', '/api/data/facial', { token, body: { sessionId, batch } });

  it('stores frames with their dominant emotion and confidences', async () => {
    const s = await recordingSession();
    const response = await post(s.jwt, s.sessionId, [frame(0), frame(1)]);
    assert.equal(response.status, 200, response.text);
    const rows = await storedRows<{ face_detected: boolean; emotion: string; confidences: object }>(
      'facial_snapshots',
      s.sessionId,
    );
    assert.deepEqual(
      rows.map((row) => [row.face_detected, row.emotion]),
      [
        [true, 'neutral'],
        [true, 'neutral'],
      ],
    );
  });

  it('rejects confidences that do not sum to ~1.0 and scores outside 0-1, naming the field', async () => {
    const s = await recordingSession();
    const batch = [
      frame(0, { emotions: { neutral: 0.5, happy: 0.2 } }),
      frame(1, { attentionScore: 1.2 }),
      frame(2, { gazeX: -0.1 }),
      frame(3, { emotions: { neutral: 1.5, happy: -0.5 } }),
      frame(4, { frameIndex: 1.5 }),
      frame(5, { emotions: { neutral: 0.98 } }),
    ];
    const data = (await post(s.jwt, s.sessionId, batch)).body.data as BatchAnswer;
    assert.equal(data.accepted, 1);
    assert.deepEqual(
      data.rejections.map((r) => [r.index, r.reason.split(':')[0]]),
      [
        [0, 'emotions'],
        [1, 'attentionScore'],
        [2, 'gazeX'],
        [3, 'emotions.neutral'],
        [4, 'frameIndex'],
      ],
    );
    assert.match(data.rejections[0]!.reason, /sum to 1\.0/);
  });

  it('a retried frame (same frameIndex) is not stored twice and counts as accepted', async () => {
    const s = await recordingSession();
    await post(s.jwt, s.sessionId, [frame(0), frame(1)]);
    const retry = (await post(s.jwt, s.sessionId, [frame(1), frame(2)])).body.data as BatchAnswer;
    assert.equal(retry.accepted, 2);
    assert.equal((await storedRows('facial_snapshots', s.sessionId)).length, 3);
  });

  it('an analyzing session answers 409 naming its state', async () => {
    const s = await recordingSession();
    await setSessionStatus(s.sessionId, 'completed');
    await setSessionStatus(s.sessionId, 'analyzing');
    const response = await post(s.jwt, s.sessionId, [frame(0)]);
    assert.equal(response.status, 409);
    assert.match(response.body.error!, /analyzing/);
  });
});

describe('POST /api/data/voice and the voice privacy rule', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  const post = (token: string, sessionId: string, batch: unknown[]) =>
    api.request('POST', '/api/data/voice', { token, body: { sessionId, batch } });

  it('rejects a sentimentScore outside -1..1, an unknown sentiment and an end before the start', async () => {
    const s = await recordingSession();
    const batch = [
      segment(0, { sentimentScore: 1.5 }),
      segment(1, { sentiment: 'angry' }),
      segment(2, { endTime: '2026-01-15T09:00:00Z' }),
      segment(3, { transcript: undefined }),
      segment(4),
    ];
    const data = (await post(s.jwt, s.sessionId, batch)).body.data as BatchAnswer;
    assert.equal(data.accepted, 1);
    assert.deepEqual(
      data.rejections.map((r) => r.reason.split(':')[0]),
      ['sentimentScore', 'sentiment', 'endTime', 'transcript'],
    );
    assert.equal(data.rejections[3]!.reason, 'transcript: Required');
  });

  it('a retried segment (same segmentIndex) is not stored twice', async () => {
    const s = await recordingSession();
    await post(s.jwt, s.sessionId, [segment(0)]);
    const retry = (await post(s.jwt, s.sessionId, [segment(0), segment(1)])).body.data as BatchAnswer;
    assert.equal(retry.accepted, 2);
    assert.equal((await storedRows('voice_segments', s.sessionId)).length, 2);
  });

  it('the test-token twin POST /api/sessions/:id/voice records on its session', async () => {
    const s = await recordingSession();
    const response = await api.request('POST', `/api/sessions/${s.sessionId}/voice`, {
      headers: { 'X-Test-Token': s.testToken },
      body: { batch: [segment(0)] },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal((await storedRows('voice_segments', s.sessionId)).length, 1);
  });

  it('PII-flagged segments are stored flagged and excluded from analysis until sanitised', async () => {
    const s = await recordingSession();
    const pii = 'ok my name is Jane Doe and my email is jane.doe@example.com';
    await post(s.jwt, s.sessionId, [segment(0), segment(1, { transcript: pii })]);
    const stored = await storedRows<{ segment_index: number; contains_pii: boolean; sanitised: boolean }>(
      'voice_segments',
      s.sessionId,
    );
    assert.deepEqual(
      stored.map((row) => [row.segment_index, row.contains_pii, row.sanitised]),
      [
        [0, false, false],
        [1, true, false],
      ],
    );
    const analysable = () => asSystem(testDatabase(), (tx) => voiceSegmentsForAnalysis(tx, s.sessionId));
    assert.deepEqual(
      (await analysable()).map((row) => row.segment_index),
      [0],
    );

    const { sanitised } = await createPrivacyActivities({ db: testDatabase() }).sanitiseVoiceSegments({
      sessionId: s.sessionId,
    });
    assert.equal(sanitised, 1);
    const after = await analysable();
    assert.deepEqual(
      after.map((row) => row.segment_index),
      [0, 1],
    );
    assert.equal(after[1]!.transcript, 'ok my name is [name] and my email is [email]');
    assert.equal(after[1]!.sanitised, true);
  });
});
