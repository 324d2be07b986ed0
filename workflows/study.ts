import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { SessionActivities } from '../activities/sessions/session-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import { payoutWorkflow, payoutWorkflowId } from './payout.ts';

export type StudyWorkflowStatus = 'draft' | 'active' | 'paused' | 'completed' | 'archived';
export type StudyStatusAction = 'pause' | 'resume' | 'archive';

export interface StudyWorkflowInput {
  readonly jobId: string;
  /**
   * Where the study's life stands when the workflow starts: draft for a new study; the recorded
   * status for a study stored without a workflow (the seeded demo study), started on its first change.
   */
  readonly status?: StudyWorkflowStatus;
}

export const studyWorkflowId = (jobId: string): string => `study:${jobId}`;

/** Sent by the payment webhook when the provider confirms the study's checkout. */
export const paymentConfirmedSignal = defineSignal<[]>('paymentConfirmed');
/** Pause, resume or archive; answers with the recorded status once the database holds it. */
export const changeStudyStatusUpdate = defineUpdate<StudyWorkflowStatus, [StudyStatusAction]>('changeStatus');
export const studyStatusQuery = defineQuery<StudyWorkflowStatus>('status');
/** Sent by a session workflow once its tester has confirmed (the session's id). */
export const sessionConfirmedSignal = defineSignal<[string]>('sessionConfirmed');

/** The failure type an update validator raises for a transition that does not apply. */
export const INVALID_TRANSITION = 'InvalidStudyTransition';

const { recordStudyStatus, studyTargetReached, paymentsToPayOut } = proxyActivities<
  StudyActivities & SessionActivities
>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

export type StudyTransition = { readonly next: StudyWorkflowStatus } | { readonly refusal: string };

/** Where an action leads from the current status, or a refusal naming the state it requires. */
export function nextStudyStatus(current: StudyWorkflowStatus, action: StudyStatusAction): StudyTransition {
  if (action === 'archive') {
    return current === 'archived' ? { refusal: 'Study is already archived' } : { next: 'archived' };
  }
  if (action === 'pause') {
    return current === 'active'
      ? { next: 'paused' }
      : { refusal: `Study must be active to pause (it is ${current})` };
  }
  return current === 'paused'
    ? { next: 'active' }
    : { refusal: `Study must be paused to resume (it is ${current})` };
}

/**
 * Owns a study's life: created in draft, it takes no testers until the payment signal makes it
 * active; then it can be paused and resumed; once its target number of sessions is confirmed it is
 * completed and its testers are paid out; archiving ends it. Every change is recorded in the
 * database by an activity before the query or the update reports it, one change at a time.
 */
export async function studyWorkflow({ jobId, status: recorded }: StudyWorkflowInput): Promise<void> {
  let status: StudyWorkflowStatus = recorded ?? 'draft';
  let changing = false;

  /** Waits for any change in flight, then applies the action to the status it left behind. */
  async function apply(action: StudyStatusAction): Promise<StudyWorkflowStatus> {
    // Several waiters may wake in one activation, so each re-checks; nothing may await between the
    // check and moveTo setting `changing`, or two changes would both start from the same status.
    while (changing) await condition(() => !changing);
    const transition = nextStudyStatus(status, action);
    if ('refusal' in transition) {
      throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: transition.refusal });
    }
    return moveTo(transition.next);
  }

  async function moveTo(next: StudyWorkflowStatus): Promise<StudyWorkflowStatus> {
    changing = true;
    try {
      await recordStudyStatus({ jobId, status: next });
      status = next;
    } finally {
      changing = false;
    }
    return status;
  }

  setHandler(studyStatusQuery, () => status);
  setHandler(paymentConfirmedSignal, async () => {
    while (changing) await condition(() => !changing);
    if (status === 'draft') await moveTo('active');
  });
  // The study is completed once its target number of sessions is confirmed; paused studies count too.
  setHandler(sessionConfirmedSignal, async () => {
    while (changing) await condition(() => !changing);
    if (status !== 'active' && status !== 'paused') return;
    changing = true;
    let reached: boolean;
    try {
      reached = await studyTargetReached({ jobId });
    } finally {
      changing = false;
    }
    if (reached && (status === 'active' || status === 'paused')) {
      await moveTo('completed');
      await startPayouts(jobId);
    }
  });
  setHandler(changeStudyStatusUpdate, apply, {
    // A change in flight may make the action valid (payment then pause), so only a settled status
    // is judged here; the handler judges again once the change has landed.
    validator: (action: StudyStatusAction) => {
      if (changing) return;
      const transition = nextStudyStatus(status, action);
      if ('refusal' in transition) {
        throw ApplicationFailure.create({ type: INVALID_TRANSITION, message: transition.refusal });
      }
    },
  });

  // A completed study lives on until it is archived: archiving is still a change it answers.
  await condition(() => status === 'archived');
  await condition(allHandlersFinished);
}

/**
 * One payout workflow per unpaid payment (spec: a completed study triggers payout to its testers).
 * They outlive this workflow; one already started, by POST /api/billing/payout, is left running.
 */
async function startPayouts(jobId: string): Promise<void> {
  for (const paymentId of await paymentsToPayOut({ jobId })) {
    try {
      await startChild(payoutWorkflow, {
        workflowId: payoutWorkflowId(paymentId),
        args: [{ paymentId }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}
