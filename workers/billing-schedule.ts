import type { Client, ScheduleSpec } from '@temporalio/client';
import { billingPeriodWorkflow } from '../workflows/billing-period.ts';
import { BILLING_SCHEDULE_ID } from '../workflows/messages/billing-period.ts';
import { ensureSchedule } from './ensure-schedule.ts';

/** The end of each billing period: 00:00 UTC on the first day of every month. */
export const BILLING_SCHEDULE_SPEC: ScheduleSpec = {
  calendars: [{ comment: 'monthly billing period ends', dayOfMonth: 1, hour: 0, minute: 0 }],
  timezone: 'UTC',
};

/** The billing-period Schedule; a run missed (the cluster down at midnight) is still taken within a week. */
export function ensureBillingSchedule(client: Client, taskQueue: string): Promise<void> {
  return ensureSchedule(client, {
    scheduleId: BILLING_SCHEDULE_ID,
    spec: BILLING_SCHEDULE_SPEC,
    workflowType: billingPeriodWorkflow,
    taskQueue,
    catchupWindow: '7 days',
  });
}
