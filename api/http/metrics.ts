import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { RequestState } from './state.ts';

/**
 * The API's Prometheus metrics (docs/decisions/operations.md, "Metrics"), in a registry of its own
 * per API so that several in one process (the tests) do not share counters. Routes are labelled by
 * their template (`/api/jobs/:id`), never by the path, so the label set stays bounded.
 */
export interface ApiMetrics {
  readonly registry: Registry;
  /** One ingestion batch's items: those stored (or stored before) and those refused. */
  ingestion(kind: string, accepted: number, rejected: number): void;
}

export interface ApiMetricsRecorder extends ApiMetrics {
  /** Times each request and counts it by method, route template and status. */
  readonly middleware: Middleware<RequestState>;
  /** The route template a request matched (or asked for), as the metrics and the traces name it. */
  routeOf(ctx: { _matchedRoute?: string | RegExp; path: string; method: string }): string;
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createApiMetrics(router: () => Router<RequestState>): ApiMetricsRecorder {
  const registry = new Registry();
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_request_errors_total',
    help: 'Requests answered with a status of 400 or more, by method, route template and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to its answer, by method, route template and status',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429 by the rate limiter, by route template',
    labelNames: ['route'],
    registers: [registry],
  });
  const items = new Counter({
    name: 'ingestion_items_total',
    help: 'Ingested signal items, by kind and outcome (accepted or rejected)',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });

  /**
   * The matched route's template, which the router leaves on the context; a request refused before
   * routing (a bad token, a rate limit) is labelled by the route it asked for, matched again here.
   */
  const routeOf = (ctx: { _matchedRoute?: string | RegExp; path: string; method: string }): string => {
    const template = ctx._matchedRoute ?? router().match(ctx.path, ctx.method).pathAndMethod.at(-1)?.path;
    return template === undefined ? 'unmatched' : String(template);
  };

  return {
    registry,
    routeOf,
    ingestion(kind, accepted, rejected) {
      if (accepted) items.inc({ kind, outcome: 'accepted' }, accepted);
      if (rejected) items.inc({ kind, outcome: 'rejected' }, rejected);
    },
    middleware: async (ctx, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const labels = {
          method: ctx.method,
          route: routeOf(ctx),
          status: String(ctx.status),
        };
        requests.inc(labels);
        duration.observe(labels, (performance.now() - started) / 1000);
        if (ctx.status >= 400) errors.inc(labels);
        if (ctx.status === 429) refusals.inc({ route: labels.route });
      }
    },
  };
}

/** The process's own (memory, CPU, event-loop delay, handles): once per process, so not per API. */
export function processMetrics(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** `GET /metrics` (Prometheus' text format) on a port of its own, apart from the public API. */
export async function serveMetrics(
  registries: readonly Registry[],
  host: string,
  port: number,
): Promise<{ readonly url: string; readonly server: Server }> {
  const merged = Registry.merge([...registries]);
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    merged.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': merged.contentType }).end(text),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`${String(error)}\n`),
    );
  });
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/metrics`, server };
}
