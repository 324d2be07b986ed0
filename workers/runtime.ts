import { OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import type { TelemetryOptions, WorkerPlugin } from '@temporalio/worker';
import type { Tracing } from '../clients/telemetry/tracing.ts';
import type { Config } from '../config/index.ts';

/**
 * The worker runtime's telemetry: with WORKER_METRICS_PORT, the Temporal SDK's Prometheus exporter
 * serves GET /metrics on METRICS_HOST:WORKER_METRICS_PORT, holding the SDK's worker metrics
 * (`temporal_*`: polls, task latencies, slots) and the worker's own, recorded on the same meter
 * (activities/worker-metrics.ts). Counters end in `_total` and durations are in seconds, as
 * Prometheus names them and as the API's metrics are.
 */
export function workerTelemetry(metrics: Config['metrics']): TelemetryOptions | undefined {
  if (metrics.workerPort === undefined) return undefined;
  const host = metrics.host.includes(':') ? `[${metrics.host}]` : metrics.host;
  return {
    metrics: {
      prometheus: {
        bindAddress: `${host}:${metrics.workerPort}`,
        countersTotalSuffix: true,
        unitSuffix: true,
        useSecondsForDurations: true,
      },
    },
  };
}

/**
 * With traces on (OTEL_EXPORTER_OTLP_ENDPOINT), Temporal's OpenTelemetry plugin: each workflow
 * and activity run is a span in the trace of whoever started it (the API's request), read from
 * the workflow's headers; workflow spans leave the sandbox through a sink.
 */
export function tracingPlugins(tracing: Tracing | undefined): WorkerPlugin[] {
  if (!tracing) return [];
  return [new OpenTelemetryPlugin({ resource: tracing.resource, spanProcessor: tracing.spanProcessor })];
}
