import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { SessionActivities } from '../activities/sessions/session-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';

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

const { recordStudyStatus, studyTargetReached } = proxyActivities<StudyActivities & SessionActivities>({
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
 * active; then it can be paused and resumed; archiving ends it. Every change is recorded in the
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
    if (reached && (status === 'active' || status === 'paused')) await moveTo('completed');
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

  await condition(() => status === 'archived' || status === 'completed');
  await condition(allHandlersFinished);
}
