import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleSpec,
} from '@temporalio/client';
import {
  LIFECYCLE_INTERVAL,
  LIFECYCLE_SCHEDULE_ID,
  lifecycleReconcileWorkflow,
} from '../workflows/reconcile.ts';

export const LIFECYCLE_SCHEDULE_SPEC: ScheduleSpec = { intervals: [{ every: LIFECYCLE_INTERVAL }] };

/**
 * Creates the Schedule that starts lost study and session workflows every few minutes, or brings
 * an existing one up to date, so every worker start leaves exactly one. Runs never overlap; a
 * missed run is not caught up (the next one does the same work).
 */
export async function ensureLifecycleSchedule(
  client: Client,
  taskQueue: string,
  options: { readonly scheduleId?: string; readonly paused?: boolean } = {},
): Promise<void> {
  const scheduleId = options.scheduleId ?? LIFECYCLE_SCHEDULE_ID;
  const action = {
    type: 'startWorkflow' as const,
    workflowType: lifecycleReconcileWorkflow,
    workflowId: scheduleId,
    taskQueue,
    args: [] as [],
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec: LIFECYCLE_SCHEDULE_SPEC,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      // Tests create it paused and trigger each run themselves.
      ...(options.paused ? { state: { paused: true } } : {}),
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule
      .getHandle(scheduleId)
      .update((previous) => ({ ...previous, spec: LIFECYCLE_SCHEDULE_SPEC, action }));
  }
}
