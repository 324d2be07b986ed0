import type { TelemetryOptions } from '@temporalio/worker';
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
