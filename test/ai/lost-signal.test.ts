import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { createAgents, type Agents } from '../../activities/ai/agents.ts';
import { createAiActivities } from '../../activities/ai/ai-activities.ts';
import { AllProvidersUnavailableError } from '../../activities/ai/errors.ts';
import { asSystem } from '../../db/doors.ts';
import { changeSessionStatusUpdate, sessionStatusQuery } from '../../workflows/messages/session.ts';
import { sessionWorkflow } from '../../workflows/session.ts';
import {
  activeStudy,
  agentJob,
  agentJobsOf,
  onTimeSkippingServer,
  recordStruggle,
  startSession,
  waitFor,
} from '../sessions/fixtures.ts';
import type { TestApi } from '../support/api.ts';
import { serviceDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { putBack, queuedAiWorkOf } from './fixtures.ts';

/** Agents whose every provider is down: each step is queued for the retry schedule. */
const down = (): Promise<never> =>
  Promise.reject(
    new AllProvidersUnavailableError([{ provider: 'openai', kind: 'unavailable', reason: 'HTTP 500' }]),
  );
const allDown: Agents = {
  local: false,
  agent1Insights: down,
  agent2Findings: down,
  agent3Report: down,
  agent4Aggregate: down,
  draftOutreach: down,
};

describe('a session waiting for the AI retry schedule whose completion signal never arrives', () => {
  let api: TestApi;
  let env: TestWorkflowEnvironment;
  onTimeSkippingServer((suite) => ({ api, env } = suite));

  it('re-reads its job every 15 minutes on a durable timer, and moves on once the job is complete', async () => {
    const business = await sessionToken((await createBusiness()).claims);
    const jobId = await activeStudy(api, business);
    const { sessionId } = await startSession(api, business, jobId);
    await recordStruggle(sessionId);
    const startedAt = new Date(await env.currentTimeMs());
    const db = serviceDatabase();
    await asSystem(db, (tx) =>
      tx.updateTable('sessions').set({ started_at: startedAt }).where('id', '=', sessionId).execute(),
    );
    const real = createActivities({ db });
    const outage = createAiActivities({ db, agents: allDown });
    const retry = createAiActivities({ db, agents: createAgents({ providers: [] }) });
    const taskQueue = `lost-signal-${process.pid}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      // Agent 2 meets a total outage: the real activity queues its job for the retry schedule.
      activities: { ...real, runAgentJob: (input: { jobId: string }) => outage.runAgentJob(input) },
    });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(sessionWorkflow, {
        workflowId: `session-lost-signal:${sessionId}`,
        taskQueue,
        args: [{ sessionId, studyId: jobId, startedAt: startedAt.toISOString(), maxDurationMinutes: 60 }],
      });
      await handle.executeUpdate(changeSessionStatusUpdate, { args: [{ action: 'complete' }] });
      let agent2Id = '';
      await waitFor(async () => {
        agent2Id = (await agentJobsOf(sessionId, 'agent2'))[0]?.id ?? '';
        return agent2Id !== '' && (await queuedAiWorkOf(agent2Id)).length === 1;
      });
      assert.equal(await handle.query(sessionStatusQuery), 'analyzing');

      // The schedule's run completes the job, and its signal to the session is lost.
      const claimed = await retry.claimQueuedAiWork({ limit: 100 });
      await putBack(claimed.filter((c) => c.agentJobId !== agent2Id).map((c) => c.workId));
      const mine = claimed.find((c) => c.agentJobId === agent2Id)!;
      assert.equal(await retry.processQueuedAiWork({ workId: mine.workId }), 'done');
      assert.equal((await agentJob(agent2Id)).status, 'complete');

      // Before the quarter hour the session still waits for the signal...
      await env.sleep('14 minutes');
      assert.equal(await handle.query(sessionStatusQuery), 'analyzing');
      // ...at it, the timer fires, the job is read as complete, and the session is analyzed.
      await env.sleep('2 minutes');
      await waitFor(async () => (await handle.query(sessionStatusQuery)) === 'analyzed');
      const history = (await handle.fetchHistory()).events ?? [];
      const signals = history.filter((e) => e.workflowExecutionSignaledEventAttributes).length;
      assert.equal(signals, 0, 'no completion signal reached the workflow');
    });
  });
});
