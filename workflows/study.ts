import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  log,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { AiActivities } from '../activities/ai/ai-activities.ts';
import type { SessionActivities } from '../activities/sessions/session-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import { agent4Workflow, agent4WorkflowId } from './agents.ts';
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
/** Sent by a session workflow once its tester report (Agent 3) is settled (the session's id). */
export const sessionReportedSignal = defineSignal<[string]>('sessionReported');

/** The failure type an update validator raises for a transition that does not apply. */
export const INVALID_TRANSITION = 'InvalidStudyTransition';

const { recordStudyStatus, studyTargetReached, paymentsToPayOut } = proxyActivities<
  StudyActivities & SessionActivities
>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

const studyReport = proxyActivities<AiActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', nonRetryableErrorTypes: ['AgentInputError'] },
});
/** A completed study re-checks its tester reports this often at first, doubling up to the max. */
const REPORT_CHECK_FIRST_MS = 60_000;
const REPORT_CHECK_MAX_MS = 15 * 60_000;

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

  /** How many settled tester reports the sessions have told of: a reason to look again. */
  let reportsSettled = 0;

  setHandler(studyStatusQuery, () => status);
  setHandler(sessionReportedSignal, () => {
    reportsSettled += 1;
  });
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
      await reportStudy(
        jobId,
        () => reportsSettled,
        () => status === 'archived',
      );
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

/**
 * DESIGN.md: completed -> Agent 4 aggregate report, without anyone asking. Waits until every
 * confirmed session has its tester report (Agent 3 may wait for a provider): each session tells
 * when its report settles, and a durable timer looks again in case a signal was lost. Then queues
 * the study's Agent 4 job and runs it as `agent4:<id>`, outliving this workflow. Archiving the
 * study ends the wait. POST /api/reports/job/:id stays for a report on demand.
 */
async function reportStudy(jobId: string, settled: () => number, archived: () => boolean): Promise<void> {
  for (let delay = REPORT_CHECK_FIRST_MS; ; delay = Math.min(delay * 2, REPORT_CHECK_MAX_MS)) {
    const seen = settled();
    if ((await studyReport.studyReportProgress({ studyId: jobId })).waiting === 0) break;
    await condition(() => settled() !== seen || archived(), delay);
    if (archived()) return;
  }
  const aggregateJobId = uuid4();
  if (!(await studyReport.queueStudyReport({ studyId: jobId, aggregateJobId }))) {
    log.info('The completed study has no tester report to aggregate', { jobId });
    return;
  }
  await startChild(agent4Workflow, {
    workflowId: agent4WorkflowId(aggregateJobId),
    args: [{ jobId: aggregateJobId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}
