import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { sessionStatusQuery, sessionWorkflowId } from '../../workflows/messages/session.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import {
  agentJob,
  agentJobsOf,
  businessWithStudy,
  readNotes,
  recordStruggle,
  startSession,
  type TesterSession,
  waitFor,
  waitForSessionStatus,
} from './fixtures.ts';
import { workerWith } from './worker-with.ts';

describe('sessions whose Agent 2 fails or is still running', () => {
  const taskQueue = `agent-failures-${process.pid}`;
  let api: TestApi;
  let worker: { stop(): Promise<void> };
  let business: string;
  let jobId: string;
  /** What the test makes Agent 2 do: fail like an outage, or wait until released. */
  const agent2 = { failing: false, calls: 0, held: undefined as Promise<void> | undefined };

  before(async () => {
    api = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: taskQueue }, worker: false });
    worker = await workerWith(taskQueue, (real) => ({
      async runAgentJob(input) {
        if ((await agentJob(input.jobId)).kind !== 'agent2') return real.runAgentJob(input);
        agent2.calls += 1;
        await agent2.held;
        if (agent2.failing) throw new Error('the database went away');
        return real.runAgentJob(input);
      },
    }));
    ({ business, jobId } = await businessWithStudy(api));
  });
  beforeEach(() => {
    Object.assign(agent2, { failing: false, calls: 0, held: undefined });
  });
  after(async () => {
    await worker?.stop();
    await api.stop();
  });

  const post = (path: string, body: unknown, token = business) => api.request('POST', path, { body, token });
  const workflowStatus = async (sessionId: string) =>
    (await temporalEnvironment()).client.workflow
      .getHandle(sessionWorkflowId(sessionId))
      .query(sessionStatusQuery);
  const completedWithSignals = async (): Promise<TesterSession> => {
    const session = await startSession(api, business, jobId);
    await recordStruggle(session.sessionId);
    const done = await post(`/api/sessions/${session.sessionId}/complete`, {});
    assert.equal(done.status, 200, done.text);
    return session;
  };

  it('a failed Agent 2 returns the session to completed: confirm, pause and resume are 409; analyze runs Agent 2 again', async () => {
    agent2.failing = true;
    const { sessionId, testerToken } = await completedWithSignals();
    // Three attempts (the agents' retry policy), then the workflow records completed again.
    await waitFor(async () => agent2.calls === 3 && (await workflowStatus(sessionId)) === 'completed');
    await waitForSessionStatus(api, sessionId, business, 'completed');
    assert.deepEqual(await readNotes(api, sessionId, testerToken), []);
    // Its job is failed with the reason, not left queued as if a provider might still answer.
    const [failed] = await agentJobsOf(sessionId, 'agent2');
    assert.deepEqual([failed!.status, failed!.error], ['failed', 'the database went away']);

    const refusals = [
      [
        await post(`/api/sessions/${sessionId}/confirm`, { rating: 5 }, testerToken),
        'Session must be analyzed to confirm (it is completed)',
      ],
      [
        await api.request('PATCH', `/api/sessions/${sessionId}`, {
          body: { status: 'paused' },
          token: business,
        }),
        'Session must be active to pause (it is completed)',
      ],
      [
        await api.request('PATCH', `/api/sessions/${sessionId}`, {
          body: { status: 'active' },
          token: business,
        }),
        'Session must be paused to resume (it is completed)',
      ],
    ] as const;
    for (const [response, message] of refusals) {
      assert.equal(response.status, 409, response.text);
      assert.equal(response.body.error, message);
    }

    agent2.failing = false;
    const analyze = await post(`/api/sessions/${sessionId}/analyze`, {});
    assert.equal(analyze.status, 202, analyze.text);
    assert.match((analyze.body.data as { status: string }).status, /^(analyzing|analyzed)$/);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    assert.equal(agent2.calls, 4);
    const notes = await readNotes(api, sessionId, testerToken);
    assert.deepEqual(notes.map((note) => note.wcagCriterion).sort(), ['3.3.1', '4.1.2']);
    // The second run is a job of its own; the notes name it.
    const jobs = await agentJobsOf(sessionId, 'agent2');
    assert.deepEqual(
      jobs.map((job) => job.status),
      ['failed', 'complete'],
    );
    const noteJobs = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('session_notes').select('agent_job_id').where('session_id', '=', sessionId).execute(),
    );
    assert.ok(noteJobs.every((note) => note.agent_job_id === jobs[1]!.id));
  });

  it('while Agent 2 runs the session is analyzing: confirm is 409 and analyze answers the running analysis', async () => {
    let release!: () => void;
    agent2.held = new Promise<void>((resolve) => (release = resolve));
    const { sessionId, testerToken } = await completedWithSignals();
    await waitFor(() => Promise.resolve(agent2.calls === 1));
    await waitForSessionStatus(api, sessionId, business, 'analyzing');

    const confirm = await post(`/api/sessions/${sessionId}/confirm`, { rating: 5 }, testerToken);
    assert.equal(confirm.status, 409);
    assert.equal(confirm.body.error, 'Session must be analyzed to confirm (it is analyzing)');
    const analyze = await post(`/api/sessions/${sessionId}/analyze`, {});
    assert.equal(analyze.status, 202, analyze.text);
    assert.deepEqual(analyze.body.data, { sessionId, status: 'analyzing', estimatedCompletionSeconds: 5 });

    release();
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    assert.equal(agent2.calls, 1, 'analyze did not start a second run');
  });
});
