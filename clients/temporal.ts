// The service's side of the Temporal client: starting the study and session workflows from what
// their rows record, and signalling studies with signal-with-start. Used by the API, by activities
// (with the worker's own client) and by tests.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError, type SignalDefinition } from '@temporalio/common';
import { isLiveStudyStatus, type RecordedSession, type RecordedStudy } from '../db/repositories/lifecycle.ts';
import { communityStatsRefreshWorkflow } from '../workflows/community-stats.ts';
import { FIRST_COMMUNITY_STATS_WORKFLOW_ID } from '../workflows/messages/community-stats.ts';
import { notificationWorkflowId } from '../workflows/messages/notification.ts';
import { capacityDecidedSignal, outreachRejectedSignal } from '../workflows/messages/recruitment.ts';
import { sessionWorkflowId } from '../workflows/messages/session.ts';
import {
  paymentConfirmedSignal,
  sessionCancelledSignal,
  sessionConfirmedSignal,
  sessionReportedSignal,
  studyWorkflowId,
} from '../workflows/messages/study.ts';
import { notificationWorkflow } from '../workflows/notification.ts';
import { sessionWorkflow } from '../workflows/session.ts';
import { studyWorkflow } from '../workflows/study.ts';

/** The study's signals that carry a session's id. */
const SESSION_SIGNALS = {
  sessionConfirmed: sessionConfirmedSignal,
  sessionReported: sessionReportedSignal,
  sessionCancelled: sessionCancelledSignal,
} as const;

/** What reaches a study's workflow from outside: the payment, and each session's confirmation, report and cancellation. */
export type StudySignal =
  | { readonly studyId: string; readonly signal: 'paymentConfirmed' }
  | {
      readonly studyId: string;
      readonly signal: 'sessionConfirmed' | 'sessionReported' | 'sessionCancelled';
      readonly sessionId: string;
    }
  | { readonly studyId: string; readonly signal: 'outreachRejected'; readonly outreachId: string }
  | { readonly studyId: string; readonly signal: 'capacityDecided'; readonly reviewId: string };

/**
 * One workflow per study for its whole life: a running one is kept, and one that has ended (an
 * archived study's) is never started again.
 */
const ONCE = { workflowIdReusePolicy: 'REJECT_DUPLICATE' } as const;

/**
 * Starts the study's workflow unless one runs or ran under its id, from the status the row
 * records: a new study's draft, or where a study stored without a workflow stands (the seeded
 * demo study; a study whose start failed after its row was committed). An archived study is left alone.
 */
export async function ensureStudyWorkflow(
  client: Client,
  taskQueue: string,
  study: RecordedStudy,
): Promise<void> {
  if (!isLiveStudyStatus(study.status)) return;
  try {
    await client.workflow.start(studyWorkflow, {
      workflowId: studyWorkflowId(study.id),
      taskQueue,
      args: [{ studyId: study.id, status: study.status }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      ...ONCE,
    });
  } catch (error) {
    // A closed workflow for this id (an archived study) is the study's finished life, not a failure.
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Signals the study's workflow, starting it first from the recorded status when the study has
 * none (signal-with-start: one request, so the signal cannot fall between a start and a send).
 * False when the study's life is over (archived, its workflow ended): the signal no longer matters.
 */
export async function signalStudyWithStart(
  client: Client,
  taskQueue: string,
  study: RecordedStudy,
  message: StudySignal,
): Promise<boolean> {
  if (!isLiveStudyStatus(study.status)) return false;
  const options = {
    workflowId: studyWorkflowId(study.id),
    taskQueue,
    args: [{ studyId: study.id, status: study.status }] as const,
    ...ONCE,
  };
  try {
    if (message.signal === 'outreachRejected') {
      await client.workflow.signalWithStart(studyWorkflow, {
        ...options,
        signal: outreachRejectedSignal,
        signalArgs: [message.outreachId],
      });
    } else if (message.signal === 'capacityDecided') {
      await client.workflow.signalWithStart(studyWorkflow, {
        ...options,
        signal: capacityDecidedSignal,
        signalArgs: [message.reviewId],
      });
    } else if (message.signal === 'paymentConfirmed') {
      await client.workflow.signalWithStart(studyWorkflow, { ...options, signal: paymentConfirmedSignal });
    } else {
      await client.workflow.signalWithStart(studyWorkflow, {
        ...options,
        signal: SESSION_SIGNALS[message.signal],
        signalArgs: [message.sessionId],
      });
    }
    return true;
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
}

/**
 * Starts the session's workflow unless it runs already, from what the row records: its status
 * (active, or paused), its start (the time limit counts from there) and its study's limit. A
 * finished one (a confirmed session's life is over) is not started again. Safe to call as often
 * as needed: the workflow id decides.
 */
export async function ensureSessionWorkflow(
  client: Client,
  taskQueue: string,
  session: RecordedSession,
): Promise<void> {
  try {
    await client.workflow.start(sessionWorkflow, {
      workflowId: sessionWorkflowId(session.id),
      taskQueue,
      args: [
        {
          sessionId: session.id,
          studyId: session.study_id,
          startedAt: session.started_at.toISOString(),
          maxDurationMinutes: session.max_duration_minutes,
          ...(session.due_at ? { dueAt: session.due_at.toISOString() } : {}),
          status: session.status,
        },
      ],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * Hands a queued outbox message to its delivery workflow (`notification:<id>`); the caller does
 * not wait for the channel. A start repeated while one runs joins it.
 */
export async function startNotificationDelivery(
  client: Client,
  taskQueue: string,
  notificationId: string,
): Promise<void> {
  await client.workflow.start(notificationWorkflow, {
    workflowId: notificationWorkflowId(notificationId),
    taskQueue,
    args: [{ notificationId }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

/**
 * Runs the refresh that makes the first community statistics snapshot and waits for it; callers
 * that ask at the same time share one run. Only for when no snapshot exists (the worker's start
 * makes one too): later snapshots come from the Schedule alone.
 */
export async function makeFirstCommunityStats(client: Client, taskQueue: string): Promise<void> {
  const handle = await client.workflow.start(communityStatsRefreshWorkflow, {
    workflowId: FIRST_COMMUNITY_STATS_WORKFLOW_ID,
    taskQueue,
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  await handle.result();
}

/**
 * Signals the workflow under the id; false when none runs there (never started, or ended). Other
 * failures (Temporal unreachable) are thrown.
 */
export async function signalIfRunning<Args extends unknown[]>(
  client: Client,
  workflowId: string,
  signal: SignalDefinition<Args>,
  ...args: Args
): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).signal(signal, ...args);
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/** The status of the workflow under the id (`RUNNING`, `COMPLETED`, ...), or undefined when none exists. */
export async function workflowStatusOf(client: Client, workflowId: string): Promise<string | undefined> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  }
}
