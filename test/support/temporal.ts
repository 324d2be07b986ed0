import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Runtime, type Worker, type WorkflowBundle } from '@temporalio/worker';
import type { ActivityDependencies } from '../../activities/index.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { testConfig } from './config.ts';
import { serviceDatabase } from './database.ts';
import { suiteWorkflowBundle } from './workflow-bundle.ts';

/** One task queue per test run, so runs on the same server never steal each other's tasks. */
export const TEST_TASK_QUEUE = `usability-test-${process.pid}`;

let environment: Promise<TestWorkflowEnvironment> | undefined;
let bundle: Promise<WorkflowBundle> | undefined;
let worker: { worker: Worker; running: Promise<void> } | undefined;

function requiredPath(variable: string): string {
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: run the suite with npm test`);
  return path;
}

// Temporal's logs go to the console by default; the suite keeps the output to mocha's. The core's
// own (its warnings on retries while a test's server is down among them) are kept to errors;
// forwarding them instead would keep the process alive after the last test.
Runtime.install({
  logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' } } },
});

/** A real Temporal dev server started from the installed CLI (no download), once per run. */
export function temporalEnvironment(): Promise<TestWorkflowEnvironment> {
  environment ??= TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: requiredPath('TEMPORAL_CLI_PATH') },
      ip: '127.0.0.1',
      log: { format: 'json', level: 'error' },
    },
  });
  return environment;
}

/** The time-skipping test server, for tests that control the clock. Each caller owns and tears down its own. */
export function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: requiredPath('TEMPORAL_TEST_SERVER_PATH') } },
  });
}

/** The workflows bundled once per run (suiteWorkflowBundle); bundling takes seconds. */
export function workflowBundle(): Promise<WorkflowBundle> {
  bundle ??= suiteWorkflowBundle();
  return bundle;
}

/**
 * A service worker on `taskQueue`, over the run's Temporal server and workflow bundle, logged in as
 * the service; `deps` adds or replaces activity dependencies (a messaging channel, agents, ...).
 * Not running yet: the caller runs it (`run()` or `runUntil`) and shuts it down.
 */
export async function createTestServiceWorker(
  taskQueue: string,
  deps: Partial<ActivityDependencies> = {},
): Promise<Worker> {
  const env = await temporalEnvironment();
  return createServiceWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: await workflowBundle(),
    db: serviceDatabase(),
    offerLinks: { baseUrl: testConfig().http.baseUrl, secret: testConfig().auth.jwtSecret },
    // The tests' webhook receivers listen on loopback; what reaches the API is checked there.
    webhooks: { urlPolicy: { allowPrivate: true } },
    ...deps,
  });
}

/** The service worker (logged in as the service), running in the background for the rest of the run. */
export async function ensureServiceWorker(): Promise<void> {
  if (worker) return;
  const created = await createTestServiceWorker(TEST_TASK_QUEUE);
  worker = { worker: created, running: created.run() };
}

export async function stopTemporal(): Promise<void> {
  if (worker) {
    worker.worker.shutdown();
    await worker.running;
    worker = undefined;
  }
  if (environment) {
    await (await environment).teardown();
    environment = undefined;
  }
}
