import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { createEmailSender } from '../../clients/email.ts';
import { createActivities } from '../../activities/index.ts';
import { paymentActivityDependencies } from '../../activities/payments/payment-activities.ts';
import { serviceDatabase } from '../support/database.ts';
import { workflowBundle } from '../support/temporal.ts';
import { business, completedStudy, eventually, paymentsOf, testerWithAccount } from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

const WORKER_PROCESS = fileURLToPath(new URL('./activity-worker-process.ts', import.meta.url));

describe('payout across a killed worker', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let h: PaymentsHarness;
  const workers: { worker: Worker; running: Promise<void> }[] = [];
  let child: ChildProcess | undefined;

  before(async () => {
    h = await startPaymentsHarness({ worker: false });
  });
  after(async function () {
    this.timeout(60_000);
    child?.kill('SIGKILL');
    for (const { worker, running } of workers) {
      worker.shutdown();
      await running;
    }
    await h.stop();
  });

  /** In this process: workflows only, so the activity can only run in the worker we kill. */
  async function inProcessWorker(kind: 'workflows' | 'activities') {
    const options = {
      connection: h.temporal.nativeConnection,
      namespace: h.temporal.namespace ?? 'default',
      taskQueue: h.taskQueue,
    };
    const db = serviceDatabase();
    const worker =
      kind === 'workflows'
        ? await Worker.create({ ...options, workflowBundle: await workflowBundle() })
        : await Worker.create({
            ...options,
            activities: createActivities({
              db,
              payments: paymentActivityDependencies(h.config, db, createEmailSender(h.config.email)),
            }),
          });
    workers.push({ worker, running: worker.run() });
  }

  async function activityWorkerProcess(): Promise<ChildProcess> {
    const spec = {
      address: h.temporal.address,
      namespace: h.temporal.namespace ?? 'default',
      taskQueue: h.taskQueue,
      env: h.env,
    };
    const started = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS, JSON.stringify(spec)], {
      env: process.env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [chunk] = (await once(started.stdout, 'data')) as unknown[];
    assert.match(String(chunk), /ready/);
    return started;
  }

  it('a worker killed after the provider paid out but before the payment was recorded: still exactly one payout', async function () {
    this.timeout(180_000);
    const person = await testerWithAccount();
    const owner = await business();
    const { jobId } = await completedStudy(owner, [person]);
    await inProcessWorker('workflows');
    child = await activityWorkerProcess();

    // The provider makes the payout, then the answer never comes: the worker dies waiting for it.
    h.provider!.fault('/v1/payouts', 'holdAfterCreate');
    const held = h.provider!.nextHold();
    assert.equal(
      (await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } })).status,
      202,
    );
    const made = await held;
    child.kill('SIGKILL');
    await once(child, 'exit');
    const [unrecorded] = await paymentsOf(jobId);
    assert.deepEqual(
      [unrecorded?.status, unrecorded?.provider_payout_id],
      ['queued', null],
      'sent, not recorded',
    );

    // Another worker takes the activity over once the dead one's heartbeat times out.
    await inProcessWorker('activities');
    const [payment] = await eventually(
      async () => {
        const rows = await paymentsOf(jobId);
        return rows[0]?.status === 'processing' && rows;
      },
      'payout recorded by the new worker',
      60_000,
    );

    const payouts = h.provider!.createdAt('/v1/payouts').filter((p) => p.account === person.accountId);
    assert.equal(payouts.length, 1, 'the provider made one payout');
    assert.equal(payment!.provider_payout_id, made.id);
    const attempts = h.provider!.requests.filter(
      (r) => r.path === '/v1/payouts' && r.account === person.accountId,
    );
    assert.deepEqual(
      attempts.map((r) => [r.idempotencyKey, r.replayed]),
      [
        [`payout:${payment!.id}:1:payout`, false],
        [`payout:${payment!.id}:1:payout`, true],
      ],
      'the retry sent the same key and was answered from the first',
    );
  });
});
