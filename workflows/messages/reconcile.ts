// The lifecycle reconciler's schedule id (workflows/reconcile.ts). Dependency-free.

/** The Temporal Schedule that repairs lost workflow starts (workers/lifecycle-schedule.ts). */
export const LIFECYCLE_SCHEDULE_ID = 'lifecycle-reconcile';
