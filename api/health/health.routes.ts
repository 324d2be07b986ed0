import type { Client } from '@temporalio/client';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ProviderUses } from '../../config/providers.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { RETRY_AFTER_SECONDS } from '../../clients/unavailable.ts';

const CHECK_TIMEOUT_MS = 2000;

const dependencyStatus = z.object({ reachable: z.boolean(), latencyMs: z.number() });
const providerUse = z
  .enum(['real', 'local', 'off'])
  .describe(
    'real: the provider itself; local: its stand-in on this machine (config/providers.ts); off: none',
  );
const healthResponse = z.object({
  status: z.literal('ok'),
  database: dependencyStatus,
  temporal: dependencyStatus,
  providers: z.object({
    email: providerUse,
    messaging: providerUse,
    ai: providerUse,
    payments: providerUse,
    facialEngine: providerUse,
  }),
});

export interface HealthDependencies {
  readonly db: Db;
  readonly temporal: Client;
  /** What the configuration chose; said here so an operator sees a stand-in without reading logs. */
  readonly providers: ProviderUses;
}

async function probe(check: () => Promise<unknown>): Promise<z.output<typeof dependencyStatus>> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { reachable: true, latencyMs: Math.round(performance.now() - started) };
  } catch {
    return { reachable: false, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes({ db, temporal, providers }: HealthDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/health/live',
      tag: 'Operations',
      summary:
        'Liveness: the process answers, whatever its dependencies (a restart would not mend a database outage); readiness is GET /api/health',
      auth: 'public',
      response: z.object({ status: z.literal('ok') }),
      handler: () => Promise.resolve({ data: { status: 'ok' as const } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/health',
      tag: 'Operations',
      summary:
        'Reachability of the database and the Temporal server (503 when either is down), and which providers are real or local stand-ins',
      auth: 'public',
      response: healthResponse,
      errors: [503],
      handler: async () => {
        const [database, workflowService] = await Promise.all([
          probe(() => sql`select 1`.execute(db)),
          probe(() =>
            // The deadline stops the client's own retries too, not just our wait for them.
            temporal.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () =>
              temporal.workflowService.getSystemInfo({}),
            ),
          ),
        ]);
        const down = [!database.reachable && 'database', !workflowService.reachable && 'temporal'].filter(
          Boolean,
        );
        if (down.length)
          throw new ApiError('unavailable', `Unavailable: ${down.join(', ')} unreachable`, {
            'Retry-After': String(RETRY_AFTER_SECONDS),
          });
        return { data: { status: 'ok', database, temporal: workflowService, providers } };
      },
    }),
  ];
}
