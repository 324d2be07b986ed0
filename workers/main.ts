import { DefaultLogger, NativeConnection, Runtime, type LogLevel } from '@temporalio/worker';
import { loadConfig } from '../config/index.ts';
import { createMessagingSender } from '../clients/messaging.ts';
import { createEmailSender } from '../clients/email.ts';
import { paymentActivityDependencies } from '../activities/payments/payment-activities.ts';
import { Client, Connection } from '@temporalio/client';
import { ensureBillingSchedule } from './billing-schedule.ts';
import { createAgents } from '../activities/ai/agents.ts';
import { providerRefusalAlerts } from '../activities/ai/provider-alerts.ts';
import { providerSummary } from '../config/providers.ts';
import { configuredProviders } from '../clients/ai/configured.ts';
import { ensureAiRetrySchedule } from './ai-retry-schedule.ts';
import { ensureLifecycleSchedule } from './lifecycle-schedule.ts';
import { ensureCommunityStatsSchedule } from './community-stats-schedule.ts';
import { createLogger } from '../config/logger.ts';
import { connectDatabase } from '../db/connection.ts';
import { createAuditWorker } from './audit-worker.ts';
import { createServiceWorker } from './service-worker.ts';
import { tracingPlugins, workerTelemetry } from './runtime.ts';
import { startTracing } from '../clients/telemetry/tracing.ts';

const config = loadConfig();
const logger = createLogger(config, 'worker');
const PINO_LEVEL: Readonly<Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'>> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};
// The SDK's own logs (bundling, state changes) join ours; it also stops the worker on SIGINT/SIGTERM.
const telemetry = workerTelemetry(config.metrics);
const tracing = startTracing('usability-worker', config.tracing.otlpEndpoint);
const plugins = tracingPlugins(tracing);
Runtime.install({
  logger: new DefaultLogger('WARN', ({ level, message, meta }) =>
    logger[PINO_LEVEL[level]](meta ?? {}, message),
  ),
  ...(telemetry ? { telemetryOptions: telemetry } : {}),
});

// Logs in as the service role (no superuser, no BYPASSRLS): every query goes through a door.
const database = connectDatabase(config.database.serviceUrl, {
  poolSize: config.database.poolSize,
  log: logger,
});
const connection = await NativeConnection.connect({ address: config.temporal.address });
const messaging = createMessagingSender(config.messaging);
const paymentEmail = createEmailSender(config.email);
const aiProviders = configuredProviders(config.ai);
// Where audits may go: organizations' webhook deliveries and studies' prototypes are held to it too.
const auditUrlPolicy = {
  allowPrivate: config.audits.allowPrivateUrls,
  allowedHosts: config.audits.allowedHosts,
};
const worker = await createServiceWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  db: database.db,
  messaging,
  email: paymentEmail,
  offerLinks: { baseUrl: config.http.baseUrl, secret: config.auth.jwtSecret },
  payments: paymentActivityDependencies(config, database.db, paymentEmail),
  agents: createAgents({
    providers: aiProviders,
    logger,
    onRefused: providerRefusalAlerts({ db: database.db, email: paymentEmail, logger }),
  }),
  recordingRetentionDays: config.recordings.retentionDays,
  plugins,
  webhooks: { urlPolicy: auditUrlPolicy },
  prototypeAudits: { taskQueue: config.audits.taskQueue, urlPolicy: auditUrlPolicy },
});
// The end-of-period invoices: one Schedule, created or brought up to date at every start.
const scheduleConnection = await Connection.connect({ address: config.temporal.address });
const scheduleClient = new Client({ connection: scheduleConnection, namespace: config.temporal.namespace });
await ensureBillingSchedule(scheduleClient, config.temporal.taskQueue);
// Queued AI work (every provider was down) is retried every 15 minutes.
await ensureAiRetrySchedule(scheduleClient, config.temporal.taskQueue);
// Study and session workflows whose start was lost are started every 5 minutes.
await ensureLifecycleSchedule(scheduleClient, config.temporal.taskQueue);
// The public community statistics: a new snapshot every 7 days, and the first one now if none exists.
await ensureCommunityStatsSchedule(scheduleClient, config.temporal.taskQueue, database.db);
await scheduleConnection.close();

const auditWorker = await createAuditWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.audits.taskQueue,
  db: database.db,
  email: config.email,
  chromiumPath: config.audits.chromiumPath,
  poolSize: config.audits.poolSize,
  allowPrivateUrls: config.audits.allowPrivateUrls,
  allowedHosts: config.audits.allowedHosts,
  serviceTaskQueue: config.temporal.taskQueue,
  credentialsSecret: config.auth.jwtSecret,
  plugins,
});

logger.info(
  { taskQueue: config.temporal.taskQueue, auditTaskQueue: config.audits.taskQueue },
  'worker running',
);
logger.info({ providers: providerSummary(config) }, 'providers: real or local stand-ins');
try {
  // Both stop together on SIGINT/SIGTERM (the SDK's shutdown signals reach every worker).
  await Promise.all([worker.run(), auditWorker.run()]);
} finally {
  paymentEmail.close();
  await tracing?.shutdown();
  await connection.close();
  await database.close();
  logger.info('worker stopped');
}
