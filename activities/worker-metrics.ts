import type { MetricMeter } from '@temporalio/common';
import { Context } from '@temporalio/activity';

/**
 * The worker's own metrics, beside the Temporal SDK's: recorded through the worker runtime's
 * meter, so its Prometheus exporter (WORKER_METRICS_PORT, workers/runtime.ts) serves both on one
 * endpoint. Without an exporter the meter records nothing.
 */
export interface WorkerMetrics {
  /** One request to an AI provider: `answered`, or the kind of its failure (activities/ai/errors.ts). */
  aiCall(provider: string, outcome: string): void;
  /** An agent answered by another provider than the first configured one. */
  aiFailover(agent: string): void;
  /** One audited page: `instant` or `report`, `ok` or the failure's type. */
  auditDuration(kind: 'instant' | 'report', outcome: string, seconds: number): void;
}

export function workerMetricsOn(meter: MetricMeter): WorkerMetrics {
  const calls = meter.createCounter(
    'ai_provider_calls',
    'calls',
    'Requests to AI providers, by provider and outcome',
  );
  const failovers = meter.createCounter(
    'ai_failovers',
    'answers',
    'Agent answers that came from a fallback provider',
  );
  const audits = meter.createHistogram(
    'audit_duration_seconds',
    'float',
    's',
    'Time to audit one page, by kind and outcome',
  );
  return {
    aiCall: (provider, outcome) => calls.add(1, { provider, outcome }),
    aiFailover: (agent) => failovers.add(1, { agent }),
    auditDuration: (kind, outcome, seconds) => audits.record(seconds, { kind, outcome }),
  };
}

const NONE: WorkerMetrics = { aiCall() {}, aiFailover() {}, auditDuration() {} };

/**
 * The running activity's metrics, on its meter (which adds the activity's type and task queue as
 * tags), or none outside an activity (a test calling it directly). The instruments are made per
 * call: these events are few (a request to a model, an audited page), and the runtime keeps one
 * series per name and tags.
 */
export function workerMetrics(): WorkerMetrics {
  let meter: MetricMeter;
  try {
    meter = Context.current().metricMeter;
  } catch {
    return NONE;
  }
  return workerMetricsOn(meter);
}
