import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { asSystem } from '../../db/doors.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { sessionStatusQuery, sessionWorkflow } from '../../workflows/session.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { timeSkippingEnvironment, workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, eligibleTester, waitFor } from './fixtures.ts';

describe('session time limit', () => {
  let api: TestApi;
  let env: TestWorkflowEnvironment;

  before(async function () {
    this.timeout(120_000);
    api = await startTestApi();
    env = await timeSkippingEnvironment();
  });
  after(async () => {
    await api.stop();
    await env?.teardown();
  });

  it('a session still running at maxDurationMinutes is completed by the durable timer, at the limit', async () => {
    const business = await sessionToken((await createBusiness()).claims);
    const jobId = await activeStudy(api, business);
    const tester = await eligibleTester();
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: tester.sub },
      token: business,
    });
    const { sessionId } = created.body.data as { sessionId: string };
    // The session starts now on the time-skipping server's clock.
    const startedAt = new Date(await env.currentTimeMs());
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('sessions').set({ started_at: startedAt }).where('id', '=', sessionId).execute(),
    );
    const row = () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('sessions')
          .select(['status', 'completed_at', 'duration_seconds'])
          .where('id', '=', sessionId)
          .executeTakeFirstOrThrow(),
      );

    const taskQueue = `session-timer-${process.pid}`;
    const worker = await createServiceWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      db: testDatabase(),
    });
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(sessionWorkflow, {
        workflowId: `session-timer:${sessionId}`,
        taskQueue,
        args: [{ sessionId, jobId, startedAt: startedAt.toISOString(), maxDurationMinutes: 30 }],
      });
      await env.sleep('29 minutes');
      assert.equal(await handle.query(sessionStatusQuery), 'active');
      assert.equal((await row()).status, 'active');
      await env.sleep('2 minutes');
      await waitFor(async () => (await handle.query(sessionStatusQuery)) === 'analyzed');
    });
    const { status, completed_at, duration_seconds } = await row();
    assert.equal(status, 'analyzed');
    assert.equal(completed_at?.toISOString(), new Date(startedAt.getTime() + 30 * 60_000).toISOString());
    assert.equal(duration_seconds, 30 * 60);
  });
});
