import { Client } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { startTracing } from '../clients/telemetry/tracing.ts';
import { connectApiToTemporal } from '../clients/temporal-connection.ts';
import { loadConfig } from '../config/index.ts';
import { createLogger } from '../config/logger.ts';
import { providerSummary } from '../config/providers.ts';
import { connectDatabase } from '../db/connection.ts';
import { createApi } from './app.ts';
import { processMetrics, serveMetrics } from './http/metrics.ts';

const config = loadConfig();
const logger = createLogger(config, 'api');
// Before anything makes a span: the provider every request's span and the Temporal client report to.
const tracing = startTracing('usability-api', config.tracing.otlpEndpoint);
// Logs in as the service role (no superuser, no BYPASSRLS): every query goes through a door.
const database = connectDatabase(config.database.serviceUrl, {
  poolSize: config.database.poolSize,
  log: logger,
});
const connection = connectApiToTemporal(config.temporal.address);
const temporal = new Client({
  connection,
  namespace: config.temporal.namespace,
  // The request's trace context goes into each workflow's headers, so the worker's spans join it.
  ...(tracing ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {}),
});
const api = createApi({ config, db: database.db, temporal, logger });

const url = await api.listen();
logger.info({ url, providers: providerSummary(config) }, 'api listening');
const metricsServer =
  config.metrics.apiPort === undefined
    ? undefined
    : await serveMetrics(
        [api.metrics.registry, processMetrics()],
        config.metrics.host,
        config.metrics.apiPort,
      );
if (metricsServer) logger.info({ url: metricsServer.url }, 'api metrics listening');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api shutting down');
    void (async () => {
      await api.stop();
      metricsServer?.server.close();
      await connection.close();
      await database.close();
      await tracing?.shutdown();
      logger.info('api stopped');
    })();
  });
}
