import assert from 'node:assert/strict';
import { queuesWithoutRecentPoller } from '../../scripts/lib/worker-polling.ts';
import { ensureServiceWorker, temporalEnvironment, TEST_TASK_QUEUE } from '../support/temporal.ts';

const MINUTE_MS = 60_000;

describe("the worker container's health check (scripts/worker-health.ts)", () => {
  let check: (overrides?: {
    taskQueues?: string[];
    identitySuffix?: string;
    now?: number;
  }) => Promise<string[]>;
  before(async () => {
    const env = await temporalEnvironment();
    await ensureServiceWorker();
    check = (overrides = {}) =>
      queuesWithoutRecentPoller({
        workflowService: env.client.workflowService,
        namespace: env.namespace ?? 'default',
        taskQueues: [TEST_TASK_QUEUE],
        maxAgeMs: 3 * MINUTE_MS,
        now: Date.now(),
        ...overrides,
      });
    // The worker starts polling just after it is created: wait for the server to have seen a poll.
    const deadline = Date.now() + 20_000;
    while ((await check()).length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('is healthy while a worker of this host polls the queue', async () => {
    assert.deepEqual(await check(), []);
  });

  it('names a queue nobody polls', async () => {
    const idle = `nobody-polls-${process.pid}`;
    assert.deepEqual(await check({ taskQueues: [TEST_TASK_QUEUE, idle] }), [idle]);
  });

  it("does not count another host's worker, nor a poll older than the allowed age", async () => {
    assert.deepEqual(await check({ identitySuffix: '@another-container' }), [TEST_TASK_QUEUE]);
    assert.deepEqual(await check({ now: Date.now() + 10 * MINUTE_MS }), [TEST_TASK_QUEUE]);
  });
});
