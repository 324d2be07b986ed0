import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleSpec,
} from '@temporalio/client';
import { BILLING_SCHEDULE_ID, billingPeriodWorkflow } from '../workflows/billing-period.ts';

/** The end of each billing period: 00:00 UTC on the first day of every month. */
export const BILLING_SCHEDULE_SPEC: ScheduleSpec = {
  calendars: [{ comment: 'monthly billing period ends', dayOfMonth: 1, hour: 0, minute: 0 }],
  timezone: 'UTC',
};

/**
 * Creates the billing-period Schedule, or brings an existing one up to date (spec and action),
 * so every worker start leaves exactly one schedule with the current definition. A missed run
 * (the cluster down at midnight) is still taken within a week; runs never overlap.
 */
export async function ensureBillingSchedule(client: Client, taskQueue: string): Promise<void> {
  const action = {
    type: 'startWorkflow' as const,
    workflowType: billingPeriodWorkflow,
    workflowId: 'billing-period',
    taskQueue,
    args: [] as [],
  };
  try {
    await client.schedule.create({
      scheduleId: BILLING_SCHEDULE_ID,
      spec: BILLING_SCHEDULE_SPEC,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '7 days' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule
      .getHandle(BILLING_SCHEDULE_ID)
      .update((previous) => ({ ...previous, spec: BILLING_SCHEDULE_SPEC, action }));
  }
}
