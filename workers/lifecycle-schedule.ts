import type { Client, ScheduleSpec } from '@temporalio/client';
import { LIFECYCLE_SCHEDULE_ID } from '../workflows/messages/reconcile.ts';
import { LIFECYCLE_INTERVAL, lifecycleReconcileWorkflow } from '../workflows/reconcile.ts';
import { ensureSchedule } from './ensure-schedule.ts';

export const LIFECYCLE_SCHEDULE_SPEC: ScheduleSpec = { intervals: [{ every: LIFECYCLE_INTERVAL }] };

/**
 * The Schedule that starts lost study and session workflows every few minutes. A missed run is not
 * caught up: the next one does the same work.
 */
export function ensureLifecycleSchedule(
  client: Client,
  taskQueue: string,
  options: { readonly scheduleId?: string; readonly paused?: boolean } = {},
): Promise<void> {
  return ensureSchedule(client, {
    scheduleId: options.scheduleId ?? LIFECYCLE_SCHEDULE_ID,
    spec: LIFECYCLE_SCHEDULE_SPEC,
    workflowType: lifecycleReconcileWorkflow,
    taskQueue,
    catchupWindow: '1 minute',
    ...(options.paused ? { paused: true } : {}),
  });
}
