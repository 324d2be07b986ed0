import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import { z } from 'zod';
import { AI_RETRY_SCHEDULE_ID } from '../../workflows/messages/ai-retry.ts';
import { BILLING_SCHEDULE_ID } from '../../workflows/messages/billing-period.ts';
import { LIFECYCLE_SCHEDULE_ID } from '../../workflows/messages/reconcile.ts';
import { cronCredential } from '../auth/service-credentials.ts';
import { ApiError } from '../../lib/errors.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';

/**
 * The scheduled jobs an external scheduler may run, by name, and the Temporal Schedule of each
 * (created by the worker at start: workers/*-schedule.ts).
 */
export const CRON_JOBS = {
  'ai-retry': AI_RETRY_SCHEDULE_ID,
  'billing-period': BILLING_SCHEDULE_ID,
  lifecycle: LIFECYCLE_SCHEDULE_ID,
} as const satisfies Record<string, string>;

type CronJob = keyof typeof CRON_JOBS;

const cronJob = z.enum(Object.keys(CRON_JOBS) as [CronJob, ...CronJob[]]);

const cronParams = z.object({ job: cronJob });

const triggeredResponse = z.object({
  job: cronJob,
  scheduleId: z.string(),
  triggeredAt: z.iso.datetime(),
});

export interface CronDependencies {
  readonly temporal: Client;
  /** CRON_SECRET; unset: the route answers 503. */
  readonly secret: string | undefined;
  readonly now: () => Date;
}

export function cronRoutes(deps: CronDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/cron/:job',
      tag: 'Operations',
      summary:
        "Run a scheduled job now (`Authorization: Bearer <CRON_SECRET>`): triggers the job's Temporal Schedule, under its overlap policy (a run still going makes this one skip)",
      auth: 'public',
      credential: cronCredential(deps.secret),
      params: cronParams,
      resource: 'Scheduled job',
      response: triggeredResponse,
      status: 202,
      handler: async ({ params }) => {
        const scheduleId = CRON_JOBS[params.job];
        try {
          await deps.temporal.schedule.getHandle(scheduleId).trigger();
        } catch (error) {
          if (!(error instanceof ScheduleNotFoundError)) throw error;
          throw new ApiError(
            'unavailable',
            `Schedule ${scheduleId} does not exist yet: the worker creates it when it starts`,
          );
        }
        return { data: { job: params.job, scheduleId, triggeredAt: deps.now().toISOString() } };
      },
    }),
  ];
}
