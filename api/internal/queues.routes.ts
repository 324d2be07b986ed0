import { z } from 'zod';
import type { Db } from '../../db/connection.ts';
import { serviceTokenCredential } from '../auth/service-credentials.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { queueDepths } from './queue-depths.ts';

const count = z.number().int();

const queueDepthsResponse = z.object({
  aiWork: z.object({ queued: count, processing: count, failed: count }),
  notifications: z.object({ pending: count, sending: count, failed: count }),
  payments: z.object({ queued: count, processing: count, failed: count }),
  oldestWaiting: z.object({ aiWork: z.iso.datetime().nullable(), notification: z.iso.datetime().nullable() }),
  measuredAt: z.iso.datetime(),
});

export interface InternalDependencies {
  readonly db: Db;
  /** SERVICE_TOKENS; none: the route answers 503. */
  readonly tokens: readonly string[];
  readonly now: () => Date;
}

export function internalRoutes(deps: InternalDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/internal/queues',
      tag: 'Operations',
      summary:
        'Depth of the work queues (`Authorization: Token <TOKEN>`): queued AI work, undelivered notifications, unpaid payouts',
      auth: 'public',
      credential: serviceTokenCredential(deps.tokens),
      response: queueDepthsResponse,
      handler: async () => ({
        data: { ...(await queueDepths(deps.db)), measuredAt: deps.now().toISOString() },
      }),
    }),
  ];
}
