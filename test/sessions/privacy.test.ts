import assert from 'node:assert/strict';
import { loadAgentSignals } from '../../activities/ai/load-agent-inputs.ts';
import { asSystem } from '../../db/doors.ts';
import type { TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { apiWithStudy, readNotes, startSession, testTokenFor, waitForSessionStatus } from './fixtures.ts';

const RAW = 'my email is jane.doe@example.com and I still cannot pay';
const REDACTED = 'my email is [email] and I still cannot pay';

describe('voice PII and the session workflow', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  before(async () => ({ api, business, jobId } = await apiWithStudy()));
  after(() => api.stop());

  const segments = (sessionId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('voice_segments')
        .select(['segment_index', 'transcript', 'contains_pii', 'sanitised', 'sanitised_at'])
        .where('session_id', '=', sessionId)
        .orderBy('segment_index')
        .execute(),
    );

  it('a PII segment is sanitised before Agent 2, whose findings quote the redacted transcript only', async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const start = Date.now() - 60_000;
    const recorded = await api.request('POST', `/api/sessions/${sessionId}/voice`, {
      headers: { 'X-Test-Token': await testTokenFor(sessionId) },
      body: {
        batch: [
          {
            segmentIndex: 0,
            startTime: new Date(start).toISOString(),
            endTime: new Date(start + 4000).toISOString(),
            transcript: RAW,
            sentiment: 'negative',
            sentimentScore: -0.9,
          },
        ],
      },
    });
    assert.equal(recorded.status, 200, recorded.text);
    const [flagged] = await segments(sessionId);
    assert.deepEqual([flagged!.transcript, flagged!.contains_pii, flagged!.sanitised], [RAW, true, false]);

    await api.request('POST', `/api/sessions/${sessionId}/complete`, { body: {}, token: business });
    await waitForSessionStatus(api, sessionId, business, 'analyzed');

    const [sanitised] = await segments(sessionId);
    assert.equal(sanitised!.transcript, REDACTED);
    assert.equal(sanitised!.contains_pii, false);
    assert.equal(sanitised!.sanitised, true);
    assert.ok(sanitised!.sanitised_at);
    const notes = await readNotes(api, sessionId, testerToken);
    const voiced = notes.filter((note) => note.content.includes(REDACTED));
    assert.equal(voiced.length, 1, JSON.stringify(notes));
    assert.ok(notes.every((note) => !note.content.includes('jane.doe@example.com')));
  });

  it('the agents read no flagged segment and no frame without a face from the database', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const at = (second: number) => new Date(Date.UTC(2026, 0, 15, 10, 0, second));
    await asSystem(testDatabase(), async (tx) => {
      await tx
        .insertInto('voice_segments')
        .values([
          {
            session_id: sessionId,
            segment_index: 0,
            started_at: at(0),
            ended_at: at(2),
            transcript: 'where is the pay button',
            sentiment: 'neutral',
            sentiment_score: 0,
          },
          {
            session_id: sessionId,
            segment_index: 1,
            started_at: at(3),
            ended_at: at(5),
            transcript: RAW,
            sentiment: 'negative',
            sentiment_score: -0.9,
            contains_pii: true,
          },
        ])
        .execute();
      await tx
        .insertInto('facial_snapshots')
        .values([
          {
            session_id: sessionId,
            frame_index: 0,
            captured_at: at(0),
            face_detected: true,
            emotion: 'happy',
            confidences: { happy: 1 },
            attention_score: 0.9,
          },
          {
            session_id: sessionId,
            frame_index: 1,
            captured_at: at(1),
            face_detected: false,
            attention_score: 0.9,
          },
        ])
        .execute();
    });
    const signals = await asSystem(testDatabase(), (tx) => loadAgentSignals(tx, sessionId));
    assert.deepEqual(
      signals.voice.map((segment) => segment.transcript),
      ['where is the pay button'],
    );
    assert.deepEqual(
      signals.facial.map((frame) => frame.at.toISOString()),
      [at(0).toISOString()],
    );
  });
});
