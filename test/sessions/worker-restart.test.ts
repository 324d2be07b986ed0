import assert from 'node:assert/strict';
import type { Worker } from '@temporalio/worker';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { sessionWorkflowId } from '../../workflows/session.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, eligibleTester, waitForSessionStatus, type SessionRead } from './fixtures.ts';

describe('session workflow across a worker restart', () => {
  const taskQueue = `session-restart-${process.pid}`;
  let api: TestApi;

  const startWorker = async () => {
    const env = await temporalEnvironment();
    const worker = await createServiceWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      db: testDatabase(),
    });
    return { worker, running: worker.run() };
  };
  const stop = async ({ worker, running }: { worker: Worker; running: Promise<void> }) => {
    worker.shutdown();
    await running;
  };

  before(async () => {
    api = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: taskQueue }, worker: false });
  });
  after(() => api.stop());

  it('a worker restarted mid-session loses nothing: a change sent while it was down lands, and the life goes on', async () => {
    let current = await startWorker();
    const business = await sessionToken((await createBusiness()).claims);
    const jobId = await activeStudy(api, business);
    const created = await api.request('POST', '/api/sessions', {
      body: { jobId, testerId: (await eligibleTester()).sub },
      token: business,
    });
    const { sessionId } = created.body.data as SessionRead;
    const handle = (await temporalEnvironment()).client.workflow.getHandle(sessionWorkflowId(sessionId));
    const { runId } = await handle.describe();

    await stop(current);
    const pausing = api.request('PATCH', `/api/sessions/${sessionId}`, {
      body: { status: 'paused' },
      token: business,
    });
    current = await startWorker();
    const paused = await pausing;
    assert.equal(paused.status, 200, paused.text);
    assert.equal((paused.body.data as SessionRead).status, 'paused');

    await stop(current);
    current = await startWorker();
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(done.status, 200, done.text);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    assert.equal((await handle.describe()).runId, runId);
    await stop(current);
  });
});
