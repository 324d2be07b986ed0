import assert from 'node:assert/strict';
import { PROVIDER_NAMES, type ProviderName } from '../../activities/ai/providers/types.ts';
import { asSystem } from '../../db/doors.ts';
import { claimDueAiWork, enqueueAiWork } from '../../db/repositories/queued-ai-work.ts';
import { ensureAiRetrySchedule } from '../../workers/ai-retry-schedule.ts';
import { agent1WorkflowId, type agent1Workflow } from '../../workflows/agents.ts';
import { activeStudy, agentJob, recordStruggle, startSession } from '../sessions/fixtures.ts';
import type { TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { startAiService, type AiService } from './ai-service.ts';
import { fakeModel } from './fake-model.ts';
import { envOf, startLocalProvider, type LocalProvider } from './provider-servers.ts';
import { putBack, queuedAgentJob, queuedAiWorkOf } from './fixtures.ts';

describe('all AI providers down: queued AI work and the 15-minute retry schedule', () => {
  const servers = {} as Record<ProviderName, LocalProvider>;
  let service: AiService;
  let api: TestApi;
  let business: string;
  const runSchedule = () => service.runSchedule();

  before(async () => {
    for (const name of PROVIDER_NAMES) servers[name] = await startLocalProvider(name, fakeModel);
    service = await startAiService('ai-retry-test', {
      AI_PROVIDER_ORDER: 'openai,anthropic,google',
      AI_TIMEOUT_MS: '400',
      ...envOf(servers, PROVIDER_NAMES),
    });
    api = service.api;
    business = await sessionToken((await createBusiness('pro')).claims);
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

  it('down -> queued; still down -> requeued; back -> completed exactly once', async () => {
    for (const name of PROVIDER_NAMES) servers[name].mode = 'error500';
    const jobId = await activeStudy(api, business);
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId, new Date(Date.now() - 60_000));

    const response = await api.request('POST', '/api/ai', { body: { sessionId }, token: business });
    assert.equal(response.status, 202, response.text);
    const { analysisJobId } = response.body.data as { analysisJobId: string };
    const env = await temporalEnvironment();
    const outcome = await env.client.workflow
      .getHandle<typeof agent1Workflow>(agent1WorkflowId(analysisJobId))
      .result();
    assert.equal(outcome.status, 'queued');

    let [item] = await queuedAiWorkOf(analysisJobId);
    assert.equal(item!.status, 'queued');
    assert.equal(item!.step, 'agent1');
    assert.match(item!.last_error!, /openai: HTTP 500.*anthropic: HTTP 500.*google: HTTP 500/);
    assert.equal((await agentJob(analysisJobId)).status, 'queued');

    // A run while every provider is still down puts the item back for a later run.
    // (Counts are at least: the suite shares one database, and the queue is the whole service's.)
    assert.ok((await runSchedule()).requeued >= 1);
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['queued', 1]);
    assert.ok(item!.next_attempt_at.getTime() > Date.now());
    // The clock, moved on: the item is due again (as it would be at the next quarter hour).
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('queued_ai_work')
        .set({ next_attempt_at: new Date() })
        .where('id', '=', item!.id)
        .execute(),
    );

    for (const name of PROVIDER_NAMES) servers[name].mode = 'ok';
    assert.ok((await runSchedule()).done >= 1);
    const job = await agentJob(analysisJobId);
    assert.deepEqual([job.status, job.provider, job.used_fallback], ['complete', 'openai', false]);
    assert.match((job.result!.insights as { summary: string }).summary, /^openai summary/);
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['done', 2]);
    const answered = servers.openai.requests.length;

    // Another run finds nothing to do: the step is not processed twice.
    await runSchedule();
    assert.equal(servers.openai.requests.length, answered);
    [item] = await queuedAiWorkOf(analysisJobId);
    assert.deepEqual([item!.status, item!.attempts], ['done', 2]);
    assert.deepEqual((await agentJob(analysisJobId)).completed_at, job.completed_at);
    const read = await api.request('GET', `/api/ai/${analysisJobId}`, { token: business });
    assert.equal((read.body.data as { status: string }).status, 'complete');
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

  it('an agent job is queued once however often it is enqueued, and concurrent claims never share an item', async () => {
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
