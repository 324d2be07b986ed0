import { proxyActivities } from '@temporalio/workflow';
import type { PaymentActivities } from '../activities/payments/payment-activities.ts';

const { sendPeriodInvoices } = proxyActivities<PaymentActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

/** The calendar month (UTC) before the one `now` falls in: [start, end). */
export function previousMonth(now: Date): { periodStart: string; periodEnd: string } {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  return { periodStart: new Date(start).toISOString(), periodEnd: new Date(end).toISOString() };
}

/**
 * The end of a billing period: started by the schedule on the first day of each month (UTC), it
 * invoices the month that just ended. The workflow's clock is its start time, so a late start
 * within the month still bills the right period.
 */
export async function billingPeriodWorkflow(): Promise<{ organizations: number; emails: number }> {
  return sendPeriodInvoices(previousMonth(new Date()));
}
