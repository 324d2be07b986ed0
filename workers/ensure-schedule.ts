import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleSpec,
  type Workflow,
} from '@temporalio/client';

export interface ScheduledWorkflow {
  readonly scheduleId: string;
  readonly spec: ScheduleSpec;
  /** A workflow that takes no arguments; each run gets the schedule's id plus its start time as its id. */
  readonly workflowType: Workflow;
  readonly taskQueue: string;
  /** How late a missed run (the cluster was down) is still taken. */
  readonly catchupWindow: `${number} ${'minute' | 'minutes' | 'days'}`;
  /** Tests create schedules paused and trigger each run themselves. */
  readonly paused?: boolean;
}

/**
 * Creates the Schedule, or brings an existing one up to date (spec and action), so every worker
 * start leaves exactly one with the current definition. Runs never overlap: a run still working
 * makes the next one skip.
 */
export async function ensureSchedule(client: Client, scheduled: ScheduledWorkflow): Promise<void> {
  const { scheduleId, spec } = scheduled;
  const action = {
    type: 'startWorkflow' as const,
    workflowType: scheduled.workflowType,
    workflowId: scheduleId,
    taskQueue: scheduled.taskQueue,
    args: [] as [],
  };
  try {
    await client.schedule.create({
      scheduleId,
      spec,
      action,
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: scheduled.catchupWindow },
      ...(scheduled.paused ? { state: { paused: true } } : {}),
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec, action }));
  }
}
