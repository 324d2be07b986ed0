import assert from 'node:assert/strict';
import { LOCAL_ANALYST } from '../../activities/ai/agents.ts';
import { asSystem, asUser, type Claims } from '../../db/doors.ts';
import { agent1WorkflowId } from '../../workflows/messages/agents.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  pollJob,
  recordStruggle,
  startSession,
  testTokenFor,
  type TesterSession,
} from '../sessions/fixtures.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { adminUserToken, agentJobOn } from './fixtures.ts';

interface AnalysisJob {
  analysisJobId: string;
  sessionId: string;
  status: string;
  estimatedCompletionSeconds: number;
  includeSignals: string[];
  snapshotAt: string;
  insights: {
    overallFrustrationScore: number;
    attentionDropTimestamps: string[];
    criticalMoments: { timestamp: string; type: string; severity: string; context: string }[];
    summary: string;
  } | null;
  provider: string | null;
  usedFallback: boolean;
  error: string | null;
}

describe('Agent 1: POST /api/ai and GET /api/ai/:analysisJobId', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;
  let live: TesterSession;
  const base = new Date(Date.now() - 10 * 60_000);

  const request = (body: unknown, token: string, headers: Record<string, string> = {}) =>
    api.request('POST', '/api/ai', { body, token, headers });
  const poll = (id: string, token: string) => pollJob<AnalysisJob>(api, `/api/ai/${id}`, token);

  before(async () => {
    api = await startTestApi();
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business);
    live = await startSession(api, business, jobId);
    await recordStruggle(live.sessionId, base);
  });
  after(() => api.stop());

  it('queues Agent 1 (202) and completes with insights from the local analyst, named as such', async () => {
    const response = await request({ sessionId: live.sessionId }, business);
    assert.equal(response.status, 202, response.text);
    const queued = response.body.data as AnalysisJob;
    assert.deepEqual(Object.keys(queued).sort(), [
      'analysisJobId',
      'estimatedCompletionSeconds',
      'sessionId',
      'status',
    ]);
    assert.equal(queued.status, 'queued');
    assert.equal(queued.sessionId, live.sessionId);
    assert.ok(queued.estimatedCompletionSeconds > 0);

    const done = await poll(queued.analysisJobId, business);
    assert.equal(done.status, 'complete');
    assert.deepEqual([done.provider, done.usedFallback], [LOCAL_ANALYST, false]);
    assert.deepEqual(done.includeSignals, ['events', 'facial', 'voice']);
    assert.deepEqual(
      done.insights!.criticalMoments.map((m) => [m.type, m.severity]),
      [
        ['rage_clicks', 'medium'],
        ['verbal_frustration', 'medium'],
        ['error', 'high'],
      ],
    );
    // The PII segment (200 s in) and the frame without a face stay out.
    assert.ok(done.insights!.criticalMoments.every((m) => !m.context.includes('jane@example.com')));
    assert.ok(done.insights!.summary.length > 0);
    const env = await temporalEnvironment();
    const description = await env.client.workflow
      .getHandle(agent1WorkflowId(queued.analysisJobId))
      .describe();
    assert.equal(description.type, 'agent1Workflow');
  });

  it('analyses only up to snapshotAt and only the signals asked for', async () => {
    const early = await request(
      { sessionId: live.sessionId, snapshotAt: new Date(base.getTime() + 30_000).toISOString() },
      business,
    );
    const voiceOnly = await request({ sessionId: live.sessionId, includeSignals: ['voice'] }, business);
    const [a, b] = await Promise.all([
      poll((early.body.data as AnalysisJob).analysisJobId, business),
      poll((voiceOnly.body.data as AnalysisJob).analysisJobId, business),
    ]);
    assert.deepEqual(
      a.insights!.criticalMoments.map((m) => m.type),
      ['rage_clicks', 'verbal_frustration'],
    );
    assert.deepEqual(b.includeSignals, ['voice']);
    assert.deepEqual(
      b.insights!.criticalMoments.map((m) => m.type),
      ['verbal_frustration'],
    );
  });

  it("the session's tester and an admin may request it and read it", async () => {
    for (const token of [live.testerToken, await adminUserToken()]) {
      const response = await request({ sessionId: live.sessionId }, token);
      assert.equal(response.status, 202, response.text);
      const done = await poll((response.body.data as AnalysisJob).analysisJobId, live.testerToken);
      assert.equal(done.status, 'complete');
    }
  });

  it('another organization or another tester: 404, for the request and for the job', async () => {
    const response = await request({ sessionId: live.sessionId }, business);
    const id = (response.body.data as AnalysisJob).analysisJobId;
    const stranger = await sessionToken((await createBusiness()).claims);
    const other = await startSession(api, business, jobId);
    for (const token of [stranger, other.testerToken]) {
      const refused = await request({ sessionId: live.sessionId }, token);
      assert.equal(refused.status, 404, refused.text);
      assert.equal(refused.body.error, 'Session not found');
      assert.equal((await api.request('GET', `/api/ai/${id}`, { token })).status, 404);
    }
  });

  it('the test token opens only the recording endpoints: 403', async () => {
    const response = await request({ sessionId: live.sessionId }, '', {
      'X-Test-Token': await testTokenFor(live.sessionId),
    });
    assert.equal(response.status, 403, response.text);
  });

  it('a session that is not active: 409 naming its state', async () => {
    const finished = await startSession(api, business, jobId);
    const completed = await api.request('POST', `/api/sessions/${finished.sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(completed.status, 200, completed.text);
    const response = await request({ sessionId: finished.sessionId }, business);
    assert.equal(response.status, 409);
    assert.match(
      response.body.error!,
      /^Session must be active for live analysis \(it is (completed|analyzing|analyzed)\)$/,
    );
    const count = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('agent_jobs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('session_id', '=', finished.sessionId)
        .where('kind', '=', 'agent1')
        .executeTakeFirstOrThrow(),
    );
    assert.equal(Number(count.n), 0);
  });

  it('row-level security: a tester queues only Agent 1, only on their own session, under their own id', async () => {
    const other = await startSession(api, business, jobId);
    const session = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('id', '=', live.sessionId).executeTakeFirstOrThrow(),
    );
    const insert = (claims: Claims, kind: 'agent1' | 'agent2', requestedBy: string) =>
      asUser(testDatabase(), claims, (tx) =>
        tx
          .insertInto('agent_jobs')
          .values(agentJobOn(session, kind, { requested_by: requestedBy }))
          .execute(),
      );
    await insert(live.tester, 'agent1', live.tester.sub);
    await assert.rejects(insert(other.tester, 'agent1', other.tester.sub), /row-level security/);
    await assert.rejects(insert(live.tester, 'agent1', other.tester.sub), /row-level security/);
    await assert.rejects(insert(live.tester, 'agent2', live.tester.sub), /row-level security/);
  });

  it('validation: unknown signal kinds and a snapshotAt in the future are 422', async () => {
    const kinds = await request({ sessionId: live.sessionId, includeSignals: ['video'] }, business);
    assert.equal(kinds.status, 422);
    assert.equal(kinds.body.error, 'includeSignals[0]: Must be events, facial or voice');
    const future = await request(
      { sessionId: live.sessionId, snapshotAt: new Date(Date.now() + 3_600_000).toISOString() },
      business,
    );
    assert.equal(future.status, 422);
    assert.equal(future.body.error, 'snapshotAt: Must not be in the future');
  });
});
