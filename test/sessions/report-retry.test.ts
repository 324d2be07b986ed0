import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { asSystem } from '../../db/doors.ts';
import { REPORT_RETRY_FIRST_MS } from '../../workflows/agent-steps.ts';
import {
  changeSessionStatusUpdate,
  confirmSessionUpdate,
  sessionStatusQuery,
} from '../../workflows/messages/session.ts';
import { sessionWorkflow } from '../../workflows/session.ts';
import type { TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  agentJob,
  onTimeSkippingServer,
  recordStruggle,
  type ReportJob,
  startSession,
  waitFor,
} from './fixtures.ts';

describe('Agent 3 failing after confirmation', () => {
  let api: TestApi;
  let env: TestWorkflowEnvironment;
  onTimeSkippingServer((suite) => ({ api, env } = suite));

  it('the payout is queued at once; the report job stays queued with the error, and Agent 3 is retried until it succeeds', async () => {
    const business = await sessionToken((await createBusiness()).claims);
    const jobId = await activeStudy(api, business);
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    await recordStruggle(sessionId);
    const startedAt = new Date(await env.currentTimeMs());
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('sessions').set({ started_at: startedAt }).where('id', '=', sessionId).execute(),
    );
    const db = serviceDatabase();
    const stored = () =>
      asSystem(db, async (tx) => ({
        jobs: await tx
          .selectFrom('agent_jobs')
          .select(['status', 'error', 'estimated_completion_seconds'])
          .where('session_id', '=', sessionId)
          .where('kind', '=', 'agent3')
          .execute(),
        payments: await tx
          .selectFrom('payments')
          .select('status')
          .where('session_id', '=', sessionId)
          .execute(),
      }));
    const reportJob = async () => {
      const response = await api.request('POST', '/api/reports', { body: { sessionId }, token: testerToken });
      assert.equal(response.status, 202, response.text);
      return response.body.data as ReportJob;
    };

    // Agent 3 fails its first round of attempts (its activity breaks: a provider outage would queue
    // the job for the AI retry schedule instead, see test/sessions/ai-pipeline.test.ts), then works.
    let agent3Calls = 0;
    const real = createActivities({ db });
    const taskQueue = `report-retry-${process.pid}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: {
        ...real,
        async runAgentJob(input: Parameters<typeof real.runAgentJob>[0]) {
          if ((await agentJob(input.jobId)).kind !== 'agent3') return real.runAgentJob(input);
          agent3Calls += 1;
          if (agent3Calls <= 3) throw new Error('the worker lost its database connection');
          return real.runAgentJob(input);
        },
      },
    });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(sessionWorkflow, {
        workflowId: `session-report:${sessionId}`,
        taskQueue,
        args: [{ sessionId, studyId: jobId, startedAt: startedAt.toISOString(), maxDurationMinutes: 60 }],
      });
      await handle.executeUpdate(changeSessionStatusUpdate, { args: [{ action: 'complete' }] });
      await waitFor(async () => (await handle.query(sessionStatusQuery)) === 'analyzed');
      const confirmation = await handle.executeUpdate(confirmSessionUpdate, {
        args: [{ rating: 5, decisions: [], confirmedAt: new Date(await env.currentTimeMs()).toISOString() }],
      });
      assert.equal(confirmation.payoutQueued, true);

      await waitFor(async () => (await stored()).jobs[0]?.error !== null && agent3Calls === 3);
      const failed = await stored();
      assert.deepEqual(failed.payments, [{ status: 'queued' }]);
      assert.deepEqual(failed.jobs, [
        {
          status: 'queued',
          error: 'the worker lost its database connection',
          estimated_completion_seconds: REPORT_RETRY_FIRST_MS / 1000 + 5,
        },
      ]);
      const queued = await reportJob();
      assert.equal(queued.status, 'queued');
      assert.equal(queued.reportId, null);
      assert.equal(queued.estimatedCompletionSeconds, REPORT_RETRY_FIRST_MS / 1000 + 5);

      await env.sleep(REPORT_RETRY_FIRST_MS);
      await waitFor(async () => (await reportJob()).status === 'complete');
    });
    assert.equal(agent3Calls, 4);
    const done = await reportJob();
    assert.ok(done.reportId);
    const report = await api.request('GET', `/api/reports/${done.reportId}`, { token: testerToken });
    assert.equal(report.status, 200, report.text);
    const after = await stored();
    assert.deepEqual(after.jobs, [{ status: 'complete', error: null, estimated_completion_seconds: 0 }]);
    assert.deepEqual(after.payments, [{ status: 'queued' }]);
  });
});
