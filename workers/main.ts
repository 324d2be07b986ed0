import { DefaultLogger, NativeConnection, Runtime, type LogLevel } from '@temporalio/worker';
import { loadConfig } from '../config/index.ts';
import { createLogger } from '../config/logger.ts';
import { connectDatabase } from '../db/connection.ts';
import { createAuditWorker } from './audit-worker.ts';
import { createServiceWorker } from './service-worker.ts';

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
Runtime.install({
  logger: new DefaultLogger('WARN', ({ level, message, meta }) =>
    logger[PINO_LEVEL[level]](meta ?? {}, message),
  ),
});

const database = connectDatabase(config.database.url, config.database.poolSize);
const connection = await NativeConnection.connect({ address: config.temporal.address });
const worker = await createServiceWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.temporal.taskQueue,
  db: database.db,
});

const auditWorker = await createAuditWorker({
  connection,
  namespace: config.temporal.namespace,
  taskQueue: config.audits.taskQueue,
  db: database.db,
  email: config.email,
  chromiumPath: config.audits.chromiumPath,
  poolSize: config.audits.poolSize,
  allowPrivateUrls: config.audits.allowPrivateUrls,
});

logger.info(
  { taskQueue: config.temporal.taskQueue, auditTaskQueue: config.audits.taskQueue },
  'worker running',
);
try {
  // Both stop together on SIGINT/SIGTERM (the SDK's shutdown signals reach every worker).
  await Promise.all([worker.run(), auditWorker.run()]);
} finally {
  await connection.close();
  await database.close();
  logger.info('worker stopped');
}
