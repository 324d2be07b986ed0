import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** A process's traces: what the Temporal interceptors and the API's request spans report to. */
export interface Tracing {
  readonly resource: Resource;
  readonly spanProcessor: SpanProcessor;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers this process's tracer provider (W3C trace context, AsyncLocalStorage context) with a
 * batching OTLP/HTTP exporter to `<endpoint>/v1/traces`, spans named by `serviceName`
 * (`usability-api`, `usability-worker`). Without an endpoint nothing is registered and every span
 * is the API's no-op.
 */
export function startTracing(serviceName: string, endpoint: string | undefined): Tracing | undefined {
  if (!endpoint) return undefined;
  const resource = new Resource({ [ATTR_SERVICE_NAME]: serviceName });
  const exporter = new OTLPTraceExporter({
    url: new URL('v1/traces', endpoint.endsWith('/') ? endpoint : `${endpoint}/`).href,
  });
  const spanProcessor = new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    resource,
    spanProcessor,
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
