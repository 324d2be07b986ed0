import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from '@temporalio/worker';
import pg from 'pg';
import { asSystem } from '../../db/doors.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { sessionStatusQuery, sessionWorkflowId } from '../../workflows/messages/session.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { spawnServiceWorker } from '../support/worker-process.ts';
import {
  activeStudy,
  eligibleTester,
  readNotes,
  startSession,
  waitFor,
  waitForSessionStatus,
  type SessionRead,
} from './fixtures.ts';

describe('session workflow across a graceful worker restart', () => {
  const taskQueue = `session-restart-${process.pid}`;
  let api: TestApi;

  const startWorker = async () => {
    const env = await temporalEnvironment();
    const worker = await createServiceWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      db: serviceDatabase(),
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

describe('session workflow across a killed worker process', () => {
  const taskQueue = `session-kill-${process.pid}`;
  let api: TestApi;
  let bundlePath: string;
  let lock: pg.Client | undefined;
  const children = new Set<ChildProcess>();

  /** Starts the service worker as a child process and waits until it polls the task queue. */
  const spawnWorker = async (): Promise<ChildProcess> => {
    const child = await spawnServiceWorker({ taskQueue, bundlePath });
    children.add(child);
    return child;
  };
  /** SIGKILL: no shutdown, no goodbye to the server; whatever the worker held is simply gone. */
  const kill = async (child: ChildProcess) => {
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    children.delete(child);
  };

  before(async () => {
    api = await startTestApi({ env: { TEMPORAL_TASK_QUEUE: taskQueue }, worker: false });
    bundlePath = join(tmpdir(), `usability-workflows-${process.pid}.js`);
    await writeFile(bundlePath, (await workflowBundle()).code);
  });
  after(async () => {
    await lock?.end();
    for (const child of children) await kill(child);
    await api.stop();
    await rm(bundlePath, { force: true });
  });

  it('a worker killed after a status change and again inside Agent 2 loses nothing and duplicates nothing', async function () {
    this.timeout(180_000);
    let worker = await spawnWorker();
    const business = await sessionToken((await createBusiness('pro')).claims);
    const jobId = await activeStudy(api, business);
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const base = Date.now() - 120_000;
    const event = (type: string, target: string, second: number) => ({
      eventType: type,
      targetSelector: target,
      timestamp: new Date(base + second * 1000).toISOString(),
    });
    const record = async (batch: unknown[]) => {
      const response = await api.request('POST', '/api/data/events', {
        body: { sessionId, batch },
        token: testerToken,
      });
      assert.equal(response.status, 200, response.text);
    };
    await record([0, 0.5, 1, 1.5].map((second) => event('click', '#pay', second)));
    const handle = (await temporalEnvironment()).client.workflow.getHandle(sessionWorkflowId(sessionId));
    const { runId } = await handle.describe();

    // Killed right after a status change is sent; signals keep arriving while no worker runs.
    const pausing = api.request('PATCH', `/api/sessions/${sessionId}`, {
      body: { status: 'paused' },
      token: business,
    });
    await kill(worker);
    await record([event('error', '#card-number', 60)]);
    worker = await spawnWorker();
    const paused = await pausing;
    assert.equal(paused.status, 200, paused.text);
    assert.equal((paused.body.data as SessionRead).status, 'paused');

    // Killed inside Agent 2: the test holds the notes table, so the agent is caught mid-transaction.
    lock = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await lock.connect();
    await lock.query('begin');
    await lock.query('lock table session_notes in exclusive mode');
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(done.status, 200, done.text);
    await waitFor(async () => {
      const { rows } = await lock!.query<{ waiting: number }>(
        `select count(*)::int as waiting from pg_locks
         where relation = 'session_notes'::regclass and not granted`,
      );
      return rows[0]!.waiting > 0;
    });
    assert.equal(await handle.query(sessionStatusQuery), 'analyzing');
    await kill(worker);
    worker = await spawnWorker();
    await lock.query('commit');
    await lock.end();
    lock = undefined;

    await waitFor(async () => (await handle.query(sessionStatusQuery)) === 'analyzed', 1200);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
    assert.equal((await handle.describe()).runId, runId);
    const notes = await readNotes(api, sessionId, testerToken);
    assert.deepEqual(notes.map((note) => note.wcagCriterion).sort(), ['3.3.1', '4.1.2']);
    const events = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_events')
        .select(['event_type', 'target_selector'])
        .where('session_id', '=', sessionId)
        .orderBy('occurred_at')
        .execute(),
    );
    assert.deepEqual(
      events.map((e) => `${e.event_type} ${e.target_selector}`),
      [...Array<string>(4).fill('click #pay'), 'error #card-number'],
    );
    await kill(worker);
  });
});
