import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { REQUEUE_DELAY_MS } from '../../activities/ai/ai-activities.ts';
import { AGENT_JOB_ATTEMPTS } from '../../lib/failures.ts';
import { STRANDED_AFTER_MS } from '../../activities/ai/job-recovery-activities.ts';
import { PROVIDER_NAMES, type ProviderName } from '../../clients/ai/types.ts';
import { asSystem } from '../../db/doors.ts';
import { claimDueAiWork, enqueueAiWork } from '../../db/repositories/queued-ai-work.ts';
import { ensureAiRetrySchedule } from '../../workers/ai-retry-schedule.ts';
import type { agent1Workflow } from '../../workflows/agents.ts';
import { agent1WorkflowId, agent4WorkflowId } from '../../workflows/messages/agents.ts';
import { AI_RETRY_SCHEDULE_ID } from '../../workflows/messages/ai-retry.ts';
import {
  activeStudy,
  agentJob,
  agentJobsOf,
  recordStruggle,
  startSession,
  waitFor,
} from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { startAiService, type AiService } from './ai-service.ts';
import { fakeModel } from './fake-model.ts';
import { envOf, startLocalProvider, type LocalProvider } from './provider-servers.ts';
import { confirmedSession, profiledTester, putBack, queuedAgentJob, queuedAiWorkOf } from './fixtures.ts';

const MINUTE = 60_000;

/** The client, except that every workflow start fails (Temporal unreachable at that moment). */
function failingStarts(client: Client): Client {
  const workflow = new Proxy(client.workflow, {
    get: (target, key, receiver): unknown =>
      key === 'start'
        ? () => Promise.reject(new Error('Temporal did not take the start'))
        : Reflect.get(target, key, receiver),
  });
  return new Proxy(client, {
    get: (target, key, receiver): unknown =>
      key === 'workflow' ? workflow : Reflect.get(target, key, receiver),
  });
}

describe('all AI providers down: queued AI work and the 15-minute retry schedule', () => {
  const servers = {} as Record<ProviderName, LocalProvider>;
  let service: AiService;
  let api: TestApi;
  let business: string;
  const runSchedule = () => service.runSchedule();
  /** How far the AI activities' clock runs ahead of the real one. */
  const clock = { aheadMs: 0 };
  const now = () => new Date(Date.now() + clock.aheadMs);

  before(async () => {
    for (const name of PROVIDER_NAMES) servers[name] = await startLocalProvider(name, fakeModel);
    service = await startAiService(
      'ai-retry-test',
      {
        AI_PROVIDER_ORDER: 'openai,anthropic,google',
        AI_TIMEOUT_MS: '400',
        ...envOf(servers, PROVIDER_NAMES),
      },
      { now },
    );
    api = service.api;
    business = await sessionToken((await createBusiness('pro')).claims);
  });
  beforeEach(() => {
    clock.aheadMs = 0;
    for (const name of PROVIDER_NAMES) {
      servers[name].mode = 'ok';
      servers[name].nextModes.length = 0;
      servers[name].retryAfterSeconds = 30;
    }
  });

  /** Agent 1 on a fresh session with struggle signals, asked for through POST /api/ai. */
  async function startAgent1() {
    const jobId = await activeStudy(api, business);
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));
    const response = await api.request('POST', '/api/ai', { body: { sessionId }, token: business });
    assert.equal(response.status, 202, response.text);
    const { analysisJobId } = response.body.data as { analysisJobId: string };
    const env = await temporalEnvironment();
    return {
      analysisJobId,
      agent1: env.client.workflow.getHandle<typeof agent1Workflow>(agent1WorkflowId(analysisJobId)),
    };
  }

  /** startAgent1 to its workflow's end, with the highest attempt its activity reached. */
  async function runAgent1(): Promise<{ analysisJobId: string; status: string; attempts: number }> {
    const { analysisJobId, agent1 } = await startAgent1();
    const { status } = await agent1.result();
    const started = ((await agent1.fetchHistory()).events ?? []).flatMap(
      (e) => e.activityTaskStartedEventAttributes ?? [],
    );
    return { analysisJobId, status, attempts: Math.max(...started.map((e) => e.attempt ?? 1)) };
  }

  it('every provider busy (429 with Retry-After): Temporal tries the agent again after it, without the queue', async () => {
    for (const name of PROVIDER_NAMES) {
      servers[name].retryAfterSeconds = 1;
      servers[name].nextModes.push(name === 'google' ? 'overloaded' : 'rateLimited');
    }
    const { analysisJobId, status, attempts } = await runAgent1();
    assert.equal(status, 'complete');
    assert.equal(attempts, 2, "the activity's second attempt answered");
    const job = await agentJob(analysisJobId);
    assert.deepEqual([job.status, job.provider, job.used_fallback], ['complete', 'openai', false]);
    assert.deepEqual(await queuedAiWorkOf(analysisJobId), []);
  });

  it('still busy after every attempt: the step waits in the queue like any outage', async () => {
    for (const name of PROVIDER_NAMES) {
      servers[name].retryAfterSeconds = 1;
      servers[name].mode = 'rateLimited';
    }
    const { analysisJobId, status, attempts } = await runAgent1();
    assert.deepEqual([status, attempts], ['queued', AGENT_JOB_ATTEMPTS]);
    const [item] = await queuedAiWorkOf(analysisJobId);
    assert.equal(item!.status, 'queued');
    assert.match(item!.last_error!, /openai: HTTP 429/);
  });

  it('every provider refuses (a bad key, a retired model): the job fails at once and is not queued', async () => {
    servers.openai.mode = 'badKey';
    servers.anthropic.mode = 'modelRetired';
    servers.google.mode = 'badKey';
    const { analysisJobId, status, attempts } = await runAgent1();
    assert.deepEqual([status, attempts], ['failed', 1]);
    const job = await agentJob(analysisJobId);
    assert.equal(job.status, 'failed');
    assert.match(job.error!, /openai: HTTP 401.*anthropic: HTTP 404.*google: HTTP 401/);
    assert.deepEqual(await queuedAiWorkOf(analysisJobId), []);
  });

  it('refused by one and down at another: retried through the queue, as the other may come back', async () => {
    servers.openai.mode = 'badKey';
    servers.anthropic.mode = 'error500';
    servers.google.mode = 'error500';
    const { analysisJobId, status } = await runAgent1();
    assert.equal(status, 'queued');
    assert.equal((await queuedAiWorkOf(analysisJobId)).length, 1);
  });
  after(async () => {
    await service?.stop();
    await Promise.all(PROVIDER_NAMES.map((name) => servers[name]?.stop()));
  });

  it('the schedule runs every 15 minutes and never overlaps', async () => {
    // Idempotent at every worker start: another call leaves the one schedule in place.
    const env = await temporalEnvironment();
    await ensureAiRetrySchedule(env.client, service.taskQueue, {
      scheduleId: service.schedule.scheduleId,
      paused: true,
    });
    const description = await service.schedule.describe();
    assert.deepEqual(
      description.spec.intervals?.map((i) => i.every),
      [15 * 60_000],
    );
    assert.equal(description.policies.overlap, 'SKIP');
    assert.equal(description.action.type, 'startWorkflow');
  });

  it("the worker's ensure function leaves the production `ai-retry` schedule running every 15 minutes", async () => {
    const env = await temporalEnvironment();
    // As workers/main.ts calls it, on a queue no worker polls: a run it starts meanwhile does nothing.
    const taskQueue = `ai-retry-production-${process.pid}`;
    await ensureAiRetrySchedule(env.client, taskQueue);
    const handle = env.client.schedule.getHandle(AI_RETRY_SCHEDULE_ID);
    try {
      // A second worker start brings the one schedule up to date instead of failing.
      await ensureAiRetrySchedule(env.client, taskQueue);
      const description = await handle.describe();
      assert.equal(description.scheduleId, 'ai-retry');
      assert.equal(description.state.paused, false);
      assert.deepEqual(
        description.spec.intervals?.map((i) => i.every),
        [15 * MINUTE],
      );
      assert.equal(description.policies.overlap, 'SKIP');
      assert.ok(description.action.type === 'startWorkflow');
      assert.deepEqual(
        [description.action.workflowType, description.action.taskQueue],
        ['aiRetryWorkflow', taskQueue],
      );
      const times = description.info.nextActionTimes.map((time) => time.getTime());
      assert.ok(times.length >= 2, `next action times: ${times.length}`);
      assert.deepEqual(
        times.slice(1).map((time, i) => time - times[i]!),
        times.slice(1).map(() => 15 * MINUTE),
      );
    } finally {
      await handle.delete();
    }
  });

  it('down -> queued; still down -> requeued; back -> completed exactly once', async () => {
    for (const name of PROVIDER_NAMES) servers[name].mode = 'error500';
    const { analysisJobId, agent1 } = await startAgent1();
    const outcome = await agent1.result();
    assert.equal(outcome.status, 'queued');
    // Its agent heartbeats: a worker that dies mid-agent is noticed in 10 s, not 5 minutes.
    const scheduled = ((await agent1.fetchHistory()).events ?? []).find(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runAgentJob',
    );
    assert.equal(String(scheduled?.activityTaskScheduledEventAttributes?.heartbeatTimeout?.seconds), '10');

    let [item] = await queuedAiWorkOf(analysisJobId);
    assert.equal(item!.status, 'queued');
    assert.equal(item!.step, 'agent1');
    assert.match(item!.last_error!, /openai: HTTP 500.*anthropic: HTTP 500.*google: HTTP 500/);
    assert.equal((await agentJob(analysisJobId)).status, 'queued');

    // A run while every provider is still down puts the item back for a later run.
    // (Counts are at least: the suite shares one database, and the queue is the whole service's.)
    const claimedAt = now().getTime();
    assert.ok((await runSchedule()).requeued >= 1);
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['queued', 1]);
    const dueIn = item!.next_attempt_at.getTime() - claimedAt;
    assert.ok(dueIn >= REQUEUE_DELAY_MS && dueIn < REQUEUE_DELAY_MS + MINUTE, `due in ${dueIn} ms`);

    // The providers are back, but a run before the item is due again leaves it alone.
    for (const name of PROVIDER_NAMES) servers[name].mode = 'ok';
    await runSchedule();
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['queued', 1]);
    assert.equal((await agentJob(analysisJobId)).status, 'queued');

    // The activities' clock at the schedule's next quarter hour: the item is due, and done.
    clock.aheadMs = 15 * MINUTE;
    assert.ok((await runSchedule()).done >= 1);
    const job = await agentJob(analysisJobId);
    assert.deepEqual([job.status, job.provider, job.used_fallback], ['complete', 'openai', false]);
    assert.match((job.result!.insights as { summary: string }).summary, /^openai summary/);
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['done', 2]);

    // Another run does not take the step again: no new attempt, the job's answer unchanged. (The
    // provider's request count would not tell: other files' items share the queue and the server.)
    await runSchedule();
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['done', 2]);
    assert.deepEqual((await agentJob(analysisJobId)).completed_at, job.completed_at);
    const read = await api.request('GET', `/api/ai/${analysisJobId}`, { token: business });
    assert.equal((read.body.data as { status: string }).status, 'complete');
  });

  it('an API job whose workflow start failed after the commit is started by a run once it is five minutes old', async () => {
    for (const name of PROVIDER_NAMES) servers[name].mode = 'ok';
    const env = await temporalEnvironment();
    const broken = await startTestApi({ temporal: failingStarts(env.client) });
    try {
      const jobId = await activeStudy(api, business);
      const { sessionId } = await startSession(api, business, jobId);
      await recordStruggle(sessionId, new Date(Date.now() - 60_000));
      await confirmedSession(jobId, await profiledTester({ country: 'GB', devices: ['desktop'] }));
      const agent1 = await broken.request('POST', '/api/ai', { body: { sessionId }, token: business });
      assert.equal(agent1.status, 500, agent1.text);
      const agent4 = await broken.request('POST', `/api/reports/job/${jobId}`, { body: {}, token: business });
      assert.equal(agent4.status, 500, agent4.text);
      const [analysis] = await agentJobsOf(sessionId, 'agent1');
      const aggregate = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('agent_jobs')
          .selectAll()
          .where('study_id', '=', jobId)
          .where('kind', '=', 'agent4')
          .executeTakeFirstOrThrow(),
      );
      assert.deepEqual([analysis!.status, aggregate.status], ['queued', 'queued']);
      const workflows = [agent1WorkflowId(analysis!.id), agent4WorkflowId(aggregate.id)];
      const started = async () =>
        Promise.all(
          workflows.map((id) =>
            env.client.workflow
              .getHandle(id)
              .describe()
              .then(
                () => true,
                () => false,
              ),
          ),
        );

      // Younger than five minutes: a start may still be on its way, so the run leaves them alone.
      await runSchedule();
      assert.deepEqual(await started(), [false, false]);

      clock.aheadMs = STRANDED_AFTER_MS + MINUTE;
      assert.ok((await runSchedule()).restarted >= 2);
      assert.deepEqual(await started(), [true, true]);
      await waitFor(async () => (await agentJob(analysis!.id)).status === 'complete');
      await waitFor(async () => (await agentJob(aggregate.id)).status === 'complete');
      assert.equal((await agentJob(analysis!.id)).provider, 'openai');

      // Once complete, nothing is started again: the same runs, the same completions.
      const runs = async () =>
        Promise.all(workflows.map(async (id) => (await env.client.workflow.getHandle(id).describe()).runId));
      const before = { runs: await runs(), completed: (await agentJob(analysis!.id)).completed_at };
      await runSchedule();
      assert.deepEqual(await runs(), before.runs);
      assert.deepEqual((await agentJob(analysis!.id)).completed_at, before.completed);
    } finally {
      await broken.stop();
    }
  });

  it('a completed item signals the workflow that waits for it (payload.notify)', async () => {
    for (const name of PROVIDER_NAMES) servers[name].mode = 'ok';
    const jobId = await activeStudy(api, business);
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));
    const agentJobId = await queuedAgentJob(sessionId, 'agent2');
    await asSystem(testDatabase(), (tx) =>
      enqueueAiWork(tx, {
        step: 'agent2',
        agentJobId,
        sessionId,
        payload: { notify: { workflowId: `session:${sessionId}`, signal: 'aiWorkCompleted' } },
        error: 'every provider failed',
        now: new Date(),
      }),
    );
    assert.ok((await runSchedule()).done >= 1);
    assert.equal((await agentJob(agentJobId)).status, 'complete');
    const env = await temporalEnvironment();
    const history = await env.client.workflow.getHandle(`session:${sessionId}`).fetchHistory();
    const signals = (history.events ?? []).flatMap((e) =>
      e.workflowExecutionSignaledEventAttributes
        ? [e.workflowExecutionSignaledEventAttributes.signalName]
        : [],
    );
    assert.ok(signals.includes('aiWorkCompleted'), signals.join(', '));
  });

  it('an agent job is queued once however often it is enqueued, concurrent claims never share an item, and a dead claim comes due again when its lease ends', async () => {
    const jobId = await activeStudy(api, business);
    const { sessionId } = await startSession(api, business, jobId);
    const jobs = await Promise.all(
      [1, 2, 3, 4].map(async () => ({ id: await queuedAgentJob(sessionId, 'agent1') })),
    );
    const now = new Date(Date.now() - 1000);
    const enqueue = (agentJobId: string) =>
      asSystem(testDatabase(), (tx) =>
        enqueueAiWork(tx, { step: 'agent1', agentJobId, sessionId, error: 'all down', now }),
      );
    assert.deepEqual(await Promise.all(jobs.map((j) => enqueue(j.id))), [true, true, true, true]);
    assert.deepEqual(await Promise.all(jobs.map((j) => enqueue(j.id))), [false, false, false, false]);

    const claim = () =>
      asSystem(testDatabase(), async (tx) => {
        const rows = await claimDueAiWork(tx, { now: new Date(), leaseMs: 600_000, limit: 100 });
        // Hold the claim a moment, as a run does before it commits.
        await tx.selectNoFrom((eb) => eb.val(1).as('one')).execute();
        return rows;
      });
    const mine = (rows: readonly { id: string; agent_job_id: string | null }[]) =>
      rows.filter((row) => jobs.some((j) => j.id === row.agent_job_id)).map((row) => row.id);
    const others = (rows: readonly { id: string; agent_job_id: string | null }[]) =>
      rows.filter((row) => !jobs.some((j) => j.id === row.agent_job_id)).map((row) => row.id);
    const [first, second] = await Promise.all([claim(), claim()]);
    await putBack([...others(first), ...others(second)]);
    const [a, b] = [mine(first), mine(second)];
    assert.equal(a.length + b.length, 4);
    assert.deepEqual(
      a.filter((id) => b.includes(id)),
      [],
    );
    // Claimed items are leased: nobody takes them again before the lease runs out.
    const again = await asSystem(testDatabase(), (tx) =>
      claimDueAiWork(tx, { now: new Date(), leaseMs: 600_000, limit: 100 }),
    );
    await putBack(others(again));
    assert.deepEqual(mine(again), []);
    // The run that claimed them died: once the lease has run out, the next claim takes them again.
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('queued_ai_work')
        .set({ next_attempt_at: new Date(Date.now() - 1000) })
        .where('id', 'in', [...a, ...b])
        .execute(),
    );
    const afterLease = await asSystem(testDatabase(), (tx) =>
      claimDueAiWork(tx, { now: new Date(), leaseMs: 600_000, limit: 100 }),
    );
    await putBack(others(afterLease));
    const retaken = afterLease.filter((row) => jobs.some((j) => j.id === row.agent_job_id));
    assert.deepEqual(
      retaken.map((row) => [row.id, row.attempts]).sort(),
      [...a, ...b].sort().map((id) => [id, 2]),
    );
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('queued_ai_work')
        .set({ status: 'failed' })
        .where(
          'agent_job_id',
          'in',
          jobs.map((j) => j.id),
        )
        .execute(),
    );
  });
});
