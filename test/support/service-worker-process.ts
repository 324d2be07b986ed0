// The service worker in a process of its own, for tests that kill it with SIGKILL mid-work (see
// test/sessions/worker-restart.test.ts). It runs on the suite's database and Temporal server, from
// the suite's environment (scripts/lib/suite-environment.ts) plus:
//   TEMPORAL_ADDRESS      the suite's Temporal server (TestWorkflowEnvironment.address)
//   TEMPORAL_TASK_QUEUE   the task queue the test's API uses
//   WORKFLOW_BUNDLE_PATH  the suite's workflow bundle, written to a file, so no start re-bundles
//   WORKER_MONEY          `1`: also the email sender and the payment activities the configuration
//                         names (the local provider without credentials), as the production worker
//   WORKER_METRICS_PORT   (optional) its Prometheus endpoint, as the production worker's
//   OTEL_EXPORTER_OTLP_ENDPOINT (optional) its traces, as the production worker's (the bundle must
//                         then hold the tracing workflow interceptors: a prebuilt one gets none)
// It logs in as the service (usability_service, derived from DATABASE_URL as the configuration
// does), like the production worker. It prints `worker ready` once it polls, and runs until killed.
import { readFile } from 'node:fs/promises';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { connectDatabase } from '../../db/connection.ts';
import { paymentActivityDependencies } from '../../activities/payments/payment-activities.ts';
import { createEmailSender } from '../../clients/email.ts';
import { loadConfig } from '../../config/index.ts';
import { serviceDatabaseUrl } from './database.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { tracingPlugins, workerTelemetry } from '../../workers/runtime.ts';
import { startTracing } from '../../clients/telemetry/tracing.ts';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const telemetry = workerTelemetry(loadConfig().metrics);
Runtime.install({ logger: quiet, ...(telemetry ? { telemetryOptions: telemetry } : {}) });

/** What the production worker moves money and sends mail with (workers/main.ts). */
function moneyDependencies() {
  const config = loadConfig();
  const email = createEmailSender(config.email);
  return { email, payments: paymentActivityDependencies(config, database.db, email) };
}

const connection = await NativeConnection.connect({ address: required('TEMPORAL_ADDRESS') });
required('DATABASE_URL'); // the suite's database, whose service login this is
const database = connectDatabase(serviceDatabaseUrl());
const worker = await createServiceWorker({
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
  taskQueue: required('TEMPORAL_TASK_QUEUE'),
  workflowBundle: { code: await readFile(required('WORKFLOW_BUNDLE_PATH'), 'utf8') },
  db: database.db,
  plugins: tracingPlugins(startTracing('usability-worker', loadConfig().tracing.otlpEndpoint)),
  ...(process.env.WORKER_MONEY === '1' ? moneyDependencies() : {}),
});
process.stdout.write('worker ready\n');
await worker.run();
