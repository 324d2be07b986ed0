import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { event, frame, recordingSession, segment, storedRows } from './fixtures.ts';

interface BatchAnswer {
  accepted: number;
  rejected: number;
  rejections: { index: number; reason: string }[];
}

// Values PostgreSQL would refuse (NUL, offsets beyond real ones, numbers a `real` cannot hold) or
// change (lone surrogates): each fails its own item, named by field, and its neighbours are stored.
describe('ingestion: an unstorable value rejects its item, never the batch', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ worker: false });
  });
  after(() => api.stop());

  async function send(kind: 'events' | 'facial' | 'voice', batch: unknown[]) {
    const session = await recordingSession();
    const response = await api.request('POST', `/api/data/${kind}`, {
      token: session.jwt,
      body: { sessionId: session.sessionId, batch },
    });
    assert.equal(response.status, 200, response.text);
    return { data: response.body.data as BatchAnswer, sessionId: session.sessionId };
  }

  it('events: NUL, a lone surrogate, an offset of -20:51', async () => {
    const { data, sessionId } = await send('events', [
      event({}, 1),
      event({ targetSelector: '#pay\u0000' }, 2),
      event({ targetSelector: '#pay\ud800' }, 3),
      event({ timestamp: '2041-11-06T17:03:29-20:51' }, 4),
      // Huge and tiny coordinates fit a double precision column: stored.
      event({ x: 1e-300, y: 1.7e308, scrollY: -1e300 }, 5),
    ]);
    assert.deepEqual(
      data.rejections.map(({ index, reason }) => [index, reason.split(':')[0]]),
      [
        [1, 'targetSelector'],
        [2, 'targetSelector'],
        [3, 'timestamp'],
      ],
    );
    assert.match(data.rejections[0]!.reason, /NUL/);
    assert.match(data.rejections[1]!.reason, /lone surrogate/);
    assert.equal(data.accepted, 2);
    const rows = await storedRows<{ x: number; y: number }>('session_events', sessionId);
    assert.deepEqual(
      rows.map((row) => [row.x, row.y]),
      [
        [120, 340],
        [1e-300, 1.7e308],
      ],
    );
  });

  it('facial frames: a score too small for a real column, NUL in an emotion name', async () => {
    const { data, sessionId } = await send('facial', [
      frame(0),
      frame(1, { attentionScore: 1e-300 }),
      frame(2, { gazeX: 1e-45 }),
      frame(3, { emotions: { 'neutral\u0000': 1 } }),
      // Confidences live in jsonb, which keeps any number.
      frame(4, { emotions: { neutral: 1 - 1e-300, happy: 1e-300 } }),
    ]);
    assert.deepEqual(
      data.rejections.map(({ index, reason }) => [index, reason.split(':')[0]]),
      [
        [1, 'attentionScore'],
        [2, 'gazeX'],
        [3, 'emotions.neutral\u0000'],
      ],
    );
    assert.equal(data.accepted, 2);
    assert.equal((await storedRows('facial_snapshots', sessionId)).length, 2);
  });

  it('voice segments: a transcript with NUL or a lone surrogate, words per minute beyond a real column', async () => {
    const { data, sessionId } = await send('voice', [
      segment(0),
      segment(1, { transcript: 'the pay button\u0000' }),
      segment(2, { transcript: 'the pay button \udc00' }),
      segment(3, { wordsPerMinute: 1e39 }),
      segment(4, { wordsPerMinute: 1e-300 }),
      segment(5, { startTime: '2026-01-15T10:00:25+14:00', endTime: '2026-01-15T10:00:29+14:00' }),
    ]);
    assert.deepEqual(
      data.rejections.map(({ index, reason }) => [index, reason.split(':')[0]]),
      [
        [1, 'transcript'],
        [2, 'transcript'],
        [3, 'wordsPerMinute'],
        [4, 'wordsPerMinute'],
      ],
    );
    assert.equal(data.accepted, 2);
    assert.equal((await storedRows('voice_segments', sessionId)).length, 2);
  });
});
