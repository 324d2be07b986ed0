import type { Client, ScheduleSpec } from '@temporalio/client';
import { AI_RETRY_INTERVAL, aiRetryWorkflow } from '../workflows/ai-retry.ts';
import { AI_RETRY_SCHEDULE_ID } from '../workflows/messages/ai-retry.ts';
import { ensureSchedule } from './ensure-schedule.ts';

export const AI_RETRY_SCHEDULE_SPEC: ScheduleSpec = { intervals: [{ every: AI_RETRY_INTERVAL }] };

/** The Schedule that retries queued AI work every 15 minutes; the claim's lease covers a run that died. */
export function ensureAiRetrySchedule(
  client: Client,
  taskQueue: string,
  options: { readonly scheduleId?: string; readonly paused?: boolean } = {},
): Promise<void> {
  return ensureSchedule(client, {
    scheduleId: options.scheduleId ?? AI_RETRY_SCHEDULE_ID,
    spec: AI_RETRY_SCHEDULE_SPEC,
    workflowType: aiRetryWorkflow,
    taskQueue,
    catchupWindow: '15 minutes',
    ...(options.paused ? { paused: true } : {}),
  });
}
