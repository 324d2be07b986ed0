// The billing period's schedule id (workflows/billing-period.ts). Dependency-free.

/** The Temporal Schedule that starts billingPeriodWorkflow (workers/billing-schedule.ts). */
export const BILLING_SCHEDULE_ID = 'billing-period-invoices';
