import assert from 'node:assert/strict';
import { Client, type Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { connectApiToTemporal } from '../../clients/temporal-connection.ts';
import { asSystem } from '../../db/doors.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import {
  activeStudy,
  agentJobsOf,
  startSession,
  waitFor,
  waitForSessionStatus,
  type SessionRead,
} from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { startRestartableTemporal, type RestartableTemporal } from '../support/restartable-temporal.ts';
import { validStudyBody } from '../support/study-body.ts';
import { workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { terminateServiceBackends } from './terminate-backends.ts';

const storedStatus = (sessionId: string) =>
  asSystem(
    testDatabase(),
    async (tx) =>
      (await tx.selectFrom('sessions').select('status').where('id', '=', sessionId).executeTakeFirstOrThrow())
        .status,
  );

const storedEvents = (sessionId: string) =>
  asSystem(testDatabase(), async (tx) =>
    Number(
      (
        await tx
          .selectFrom('session_events')
          .select((eb) => eb.fn.countAll().as('count'))
          .where('session_id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).count,
    ),
  );

describe('the Temporal server restarted in the middle of a session', function () {
  this.timeout(240_000);
  const taskQueue = `temporal-restart-${process.pid}`;
  let server: RestartableTemporal;
  let connection: Connection;
  let workerConnection: NativeConnection;
  let worker: { worker: Worker; running: Promise<void> };
  let api: TestApi;

  before(async function () {
    this.timeout(120_000);
    server = await startRestartableTemporal();
    connection = connectApiToTemporal(server.address);
    workerConnection = await NativeConnection.connect({ address: server.address });
    const created = await createServiceWorker({
      connection: workerConnection,
      namespace: 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      db: serviceDatabase(),
      offerLinks: { baseUrl: testConfig().http.baseUrl, secret: testConfig().auth.jwtSecret },
    });
    worker = { worker: created, running: created.run() };
    api = await startTestApi({
      temporal: new Client({ connection, namespace: 'default' }),
      worker: false,
      env: { TEMPORAL_TASK_QUEUE: taskQueue },
    });
  });
  after(async function () {
    this.timeout(60_000);
    try {
      await api?.stop();
      worker?.worker.shutdown();
      await worker?.running;
      await workerConnection?.close();
      await connection?.close();
    } finally {
      await server?.dispose();
    }
  });

  it('answers 503 naming Temporal while it is down and changes nothing; once it is back the session goes on where it was and is analysed once', async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    const client = new Client({ connection, namespace: 'default' });
    const jobId = await activeStudy(api, business, validStudyBody(), client);
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const { runId } = await client.workflow.getHandle(sessionWorkflowId(sessionId)).describe();
    const base = Date.now() - 60_000;
    const record = async (seconds: number[]) => {
      const response = await api.request('POST', '/api/data/events', {
        body: {
          sessionId,
          batch: seconds.map((second) => ({
            eventType: 'click',
            targetSelector: '#pay',
            timestamp: new Date(base + second * 1000).toISOString(),
          })),
        },
        token: testerToken,
      });
      assert.equal(response.status, 200, response.text);
    };
    await record([0, 0.5, 1]);

    await server.stop();
    const health = await api.request('GET', '/api/health');
    assert.equal(health.status, 503, health.text);
    assert.equal(health.body.error, 'Unavailable: temporal unreachable');
    const pausing = await api.request('PATCH', `/api/sessions/${sessionId}`, {
      body: { status: 'paused' },
      token: business,
    });
    assert.equal(pausing.status, 503, pausing.text);
    assert.equal(pausing.body.error, 'Unavailable: temporal unreachable, try again later');
    assert.equal(pausing.headers.get('retry-after'), '5');
    assert.equal(await storedStatus(sessionId), 'active', 'a refused change is not half made');
    // The signals need only the database: they are kept while Temporal is away.
    await record([1.5, 2]);

    await server.start();
    await waitFor(async () => (await api.request('GET', '/api/health')).status === 200, 1200);
    const paused = await api.request('PATCH', `/api/sessions/${sessionId}`, {
      body: { status: 'paused' },
      token: business,
    });
    assert.equal(paused.status, 200, paused.text);
    assert.equal((paused.body.data as SessionRead).status, 'paused');
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(done.status, 200, done.text);
    // The database's connections end while the analysis runs: its steps fail and are retried.
    assert.ok((await terminateServiceBackends()) > 0);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');

    assert.equal((await client.workflow.getHandle(sessionWorkflowId(sessionId)).describe()).runId, runId);
    assert.equal(await storedEvents(sessionId), 5);
    assert.equal((await agentJobsOf(sessionId, 'agent2')).length, 1);
  });

  it('an API started while it is down answers its health 503 and stores a study created meanwhile (201, once); its workflow runs once it is back', async () => {
    const owner = await createBusiness('pro');
    const business = await sessionToken(owner.claims);
    await server.stop();
    const lateConnection = connectApiToTemporal(server.address);
    const late = await startTestApi({
      temporal: new Client({ connection: lateConnection, namespace: 'default' }),
      worker: false,
      env: { TEMPORAL_TASK_QUEUE: taskQueue },
    });
    try {
      assert.equal((await late.request('GET', '/api/health')).status, 503);
      const create = () =>
        late.request('POST', '/api/jobs', {
          body: validStudyBody(),
          token: business,
          headers: { 'Idempotency-Key': `outage-${owner.organizationId}` },
        });
      const stored = await create();
      assert.equal(stored.status, 201, stored.text);
      const { jobId } = stored.body.data as { jobId: string };

      await server.start();
      await waitFor(async () => (await late.request('GET', '/api/health')).status === 200, 1200);
      // The retry a client makes (or the lifecycle reconciler, within 5 minutes) starts its workflow.
      const retried = await create();
      assert.equal(retried.status, 201, retried.text);
      assert.equal(retried.headers.get('idempotent-replayed'), 'true');
      assert.equal((retried.body.data as { jobId: string }).jobId, jobId);
      const studies = await testDatabase()
        .selectFrom('studies')
        .select('id')
        .where('organization_id', '=', owner.organizationId)
        .execute();
      assert.deepEqual(
        studies.map((study) => study.id),
        [jobId],
      );
      const client = new Client({ connection, namespace: 'default' });
      assert.equal(
        (await client.workflow.getHandle(studyWorkflowId(jobId)).describe()).status.name,
        'RUNNING',
      );
    } finally {
      await late.stop();
      await lateConnection.close();
    }
  });
});
