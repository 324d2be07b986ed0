import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  adminToken,
  analyzedSession,
  businessWithStudy,
  eligibleTester,
  startSession,
  testTokenFor,
  waitForSessionStatus,
} from './fixtures.ts';

const SESSION_KEYS = [
  'completedAt',
  'durationSeconds',
  'jobId',
  'sessionId',
  'startedAt',
  'status',
  'tasks',
  'testerId',
  'variant',
];
const keysOf = (data: unknown) => Object.keys(data as object).sort();

describe('session transitions through the API', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;

  const post = (path: string, body: unknown, token = business) => api.request('POST', path, { body, token });
  const patch = (
    sessionId: string,
    body: unknown,
    options: { token?: string; headers?: Record<string, string> },
  ) => api.request('PATCH', `/api/sessions/${sessionId}`, { body, ...options });
  const storedSession = (sessionId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow(),
    );

  before(async () => {
    api = await startTestApi();
    ({ business, jobId } = await businessWithStudy(api, 100));
  });
  after(() => api.stop());

  it('GET, PATCH, complete, analyze and confirm answer exactly their fields', async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const read = await api.request('GET', `/api/sessions/${sessionId}`, { token: business });
    // GET adds the insights of the latest live analysis (POST /api/ai); none has run yet.
    assert.deepEqual(keysOf(read.body.data), [...SESSION_KEYS, 'insights'].sort());
    assert.equal((read.body.data as { insights: unknown }).insights, null);
    const paused = await patch(sessionId, { status: 'paused' }, { token: business });
    assert.deepEqual(keysOf(paused.body.data), SESSION_KEYS);
    assert.equal((paused.body.data as { status: string }).status, 'paused');
    await patch(sessionId, { status: 'active' }, { token: business });

    const completed = await post(`/api/sessions/${sessionId}/complete`, {});
    assert.deepEqual(keysOf(completed.body.data), ['completedAt', 'sessionId', 'status']);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    const analyze = await post(`/api/sessions/${sessionId}/analyze`, {});
    assert.deepEqual(keysOf(analyze.body.data), ['estimatedCompletionSeconds', 'sessionId', 'status']);

    const asked = Date.now();
    const confirmed = await post(`/api/sessions/${sessionId}/confirm`, { rating: 4 }, testerToken);
    const answered = Date.now();
    assert.equal(confirmed.status, 200, confirmed.text);
    assert.deepEqual(keysOf(confirmed.body.data), ['confirmedAt', 'payoutQueued', 'sessionId', 'status']);
    const data = confirmed.body.data as { confirmedAt: string; status: string; payoutQueued: boolean };
    assert.equal(data.status, 'confirmed');
    assert.equal(data.payoutQueued, true);
    const at = Date.parse(data.confirmedAt);
    assert.ok(at >= asked - 1000 && at <= answered, `${data.confirmedAt} is the time of the request`);
    assert.equal((await storedSession(sessionId)).confirmed_at?.toISOString(), data.confirmedAt);
  });

  it('PATCH {status: completed} with a JWT completes the session at the time of the request', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const asked = Date.now();
    const response = await patch(sessionId, { status: 'completed' }, { token: business });
    assert.equal(response.status, 200, response.text);
    const data = response.body.data as { status: string; completedAt: string; durationSeconds: number };
    assert.equal(data.status, 'completed');
    assert.ok(Date.parse(data.completedAt) >= asked - 1000);
    assert.equal(typeof data.durationSeconds, 'number');
    assert.equal((await storedSession(sessionId)).completed_at?.toISOString(), data.completedAt);
  });

  it('PATCH {status: completed} with the test token completes the session', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const response = await patch(
      sessionId,
      { status: 'completed' },
      { headers: { 'X-Test-Token': await testTokenFor(sessionId) } },
    );
    assert.equal(response.status, 200, response.text);
    assert.equal((response.body.data as { status: string }).status, 'completed');
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
  });

  it('a confirmed session refuses pause, resume, analyze, confirm and new signals with 409 naming its state', async () => {
    const { sessionId, testerToken } = await analyzedSession(api, business, jobId);
    assert.equal((await post(`/api/sessions/${sessionId}/confirm`, { rating: 5 }, testerToken)).status, 200);
    const refusals = [
      [
        await patch(sessionId, { status: 'paused' }, { token: business }),
        'Session must be active to pause (it is confirmed)',
      ],
      [
        await patch(sessionId, { status: 'active' }, { token: business }),
        'Session must be paused to resume (it is confirmed)',
      ],
      [
        await post(`/api/sessions/${sessionId}/analyze`, {}),
        'Session must be completed to analyze (it is confirmed)',
      ],
      [
        await post(`/api/sessions/${sessionId}/confirm`, { rating: 5 }, testerToken),
        'Session must be analyzed to confirm (it is confirmed)',
      ],
      [
        await post(
          '/api/data/events',
          {
            sessionId,
            batch: [{ eventType: 'click', targetSelector: '#pay', timestamp: new Date().toISOString() }],
          },
          testerToken,
        ),
        'Session is confirmed: signals are recorded only while it is active or paused',
      ],
    ] as const;
    for (const [response, message] of refusals) {
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.error, message);
    }
  });

  it('notes cannot be added or edited once the session is confirmed: 409, nothing written', async () => {
    const { sessionId, testerToken } = await analyzedSession(api, business, jobId);
    const written = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, {
      body: { notes: [{ content: 'The pay button is hard to find' }] },
      token: business,
    });
    assert.equal(written.status, 200, written.text);
    const notes = () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('session_notes')
          .select(['id', 'content', 'author_kind'])
          .where('session_id', '=', sessionId)
          .orderBy('id')
          .execute(),
      );
    const own = (await notes()).find((note) => note.author_kind === 'human')!;
    assert.equal((await post(`/api/sessions/${sessionId}/confirm`, { rating: 4 }, testerToken)).status, 200);
    const stored = await notes();

    for (const [body, token] of [
      [{ notes: [{ content: 'Added after the report was built' }] }, business],
      [{ notes: [{ noteId: own.id, content: 'Rewritten after confirmation' }] }, business],
      [{ notes: [{ content: 'My afterthought' }] }, testerToken],
    ] as const) {
      const response = await api.request('PATCH', `/api/sessions/${sessionId}/notes`, { body, token });
      assert.equal(response.status, 409, response.text);
      assert.equal(
        response.body.error,
        'Notes can change only until the session is confirmed (it is confirmed)',
      );
    }
    assert.deepEqual(await notes(), stored);
  });

  it('feedback from anyone but the session tester is 403', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    await post(`/api/sessions/${sessionId}/complete`, {});
    const body = { clarity: 4, difficulty: 2, technicalIssues: false };
    for (const token of [business, await adminToken()]) {
      const response = await post(`/api/sessions/${sessionId}/feedback`, body, token);
      assert.equal(response.status, 403, response.text);
      assert.equal(response.body.error, "Only the session's tester can give feedback");
    }
    const stranger = await post(
      `/api/sessions/${sessionId}/feedback`,
      body,
      await sessionToken(await eligibleTester()),
    );
    assert.equal(stranger.status, 404, 'another tester cannot see the session');
  });

  it('completedAt in the future or before the start is 422 naming completedAt', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const { started_at } = await storedSession(sessionId);
    const future = await post(`/api/sessions/${sessionId}/complete`, {
      completedAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    assert.equal(future.status, 422);
    assert.equal(future.body.error, 'completedAt: Must not be in the future');
    const early = await post(`/api/sessions/${sessionId}/complete`, {
      completedAt: new Date(started_at.getTime() - 1000).toISOString(),
    });
    assert.equal(early.status, 422);
    assert.equal(early.body.error, 'completedAt: Must not be before the session started');
    assert.equal((await storedSession(sessionId)).status, 'active');
  });

  it('two concurrent completes: one 200 and one 409', async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const answers = await Promise.all([
      post(`/api/sessions/${sessionId}/complete`, {}),
      post(`/api/sessions/${sessionId}/complete`, {}),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    assert.match(
      refused.body.error!,
      /^Session must be active or paused to complete \(it is (completed|analyzing|analyzed)\)$/,
    );
    const { completed_at } = await storedSession(sessionId);
    const accepted = answers.find((answer) => answer.status === 200)!;
    assert.equal(completed_at?.toISOString(), (accepted.body.data as { completedAt: string }).completedAt);
  });
});
