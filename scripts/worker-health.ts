// The worker container's health check (docker-compose.yml). The worker serves no port, so "healthy"
// means what matters: a worker process in this container polled both of its task queues within the
// last few minutes, as the Temporal server saw it. Exits 0 when so, 1 otherwise.
import { Connection } from '@temporalio/client';
import { loadConfig } from '../config/index.ts';
import { queuesWithoutRecentPoller } from './lib/worker-polling.ts';

const MAX_POLL_AGE_MS = 3 * 60_000;

const config = loadConfig();
let healthy = false;
try {
  const connection = await Connection.connect({ address: config.temporal.address, connectTimeout: 5000 });
  try {
    const missing = await queuesWithoutRecentPoller({
      workflowService: connection.workflowService,
      namespace: config.temporal.namespace,
      taskQueues: [config.temporal.taskQueue, config.audits.taskQueue],
      maxAgeMs: MAX_POLL_AGE_MS,
      now: Date.now(),
    });
    healthy = missing.length === 0;
    if (!healthy) console.error(`no recent poll from this container on: ${missing.join(', ')}`);
  } finally {
    await connection.close();
  }
} catch (error) {
  console.error(`Temporal at ${config.temporal.address} did not answer: ${(error as Error).message}`);
}
process.exit(healthy ? 0 : 1);
