import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleSpec,
} from '@temporalio/client';
import { AI_RETRY_INTERVAL, AI_RETRY_SCHEDULE_ID, aiRetryWorkflow } from '../workflows/ai-retry.ts';

export const AI_RETRY_SCHEDULE_SPEC: ScheduleSpec = { intervals: [{ every: AI_RETRY_INTERVAL }] };

/**
 * Creates the Schedule that retries queued AI work every 15 minutes, or brings an existing one up
 * to date, so every worker start leaves exactly one. Runs never overlap (a run still working
 * makes the next one skip); the claim's lease covers a run that died.
 */
export async function ensureAiRetrySchedule(
  client: Client,
  taskQueue: string,
  options: { readonly scheduleId?: string; readonly paused?: boolean } = {},
): Promise<void> {
  const scheduleId = options.scheduleId ?? AI_RETRY_SCHEDULE_ID;
  const action = {
    type: 'startWorkflow' as const,
    workflowType: aiRetryWorkflow,
    workflowId: scheduleId,
    taskQueue,
    args: [] as [],
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec: AI_RETRY_SCHEDULE_SPEC,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '15 minutes' },
      // Tests create it paused and trigger each run themselves.
      ...(options.paused ? { state: { paused: true } } : {}),
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule
      .getHandle(scheduleId)
      .update((previous) => ({ ...previous, spec: AI_RETRY_SCHEDULE_SPEC, action }));
  }
}
