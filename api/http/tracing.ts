import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { RequestState } from './state.ts';

const tracer = trace.getTracer('usability-api');

/**
 * One server span per request, the parent of whatever it starts (the Temporal client's
 * interceptor puts the context into the workflow's headers, so the workflow and its activities
 * join the trace). A `traceparent` from the caller continues its trace. Named by method and route
 * template once routing has run; a 5xx is an error. Mounted only with a trace exporter
 * (OTEL_EXPORTER_OTLP_ENDPOINT): without one the span would be the API's no-op, made for nothing.
 */
export function traceRequests(
  routeOf: (ctx: Parameters<Middleware<RequestState>>[0]) => string,
): Middleware<RequestState> {
  return async (ctx, next) => {
    const parent = propagation.extract(context.active(), ctx.headers);
    const span = tracer.startSpan(
      `${ctx.method} ${ctx.path}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': ctx.method, 'url.path': ctx.path } },
      parent,
    );
    try {
      await context.with(trace.setSpan(parent, span), next);
    } finally {
      const route = routeOf(ctx);
      span.updateName(`${ctx.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': ctx.status });
      if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  };
}
