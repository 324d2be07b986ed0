import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  uuid4,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { Mutex } from 'async-mutex';
import type { AiActivities } from '../activities/ai/ai-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import { AGENT_INPUT_ERROR, INVALID_STUDY_TRANSITION } from '../lib/failures.ts';
import type { StudyStatus } from '../lib/domain.ts';
import { agent4Workflow } from './agents.ts';
import { agent4WorkflowId } from './messages/agents.ts';
import { payoutWorkflowId } from './messages/payout.ts';
import type { ApprovedOffer } from './messages/recruitment.ts';
import {
  changeStudyStatusUpdate,
  paymentConfirmedSignal,
  sessionConfirmedSignal,
  sessionReportedSignal,
  studyStatusQuery,
  type StudyWorkflowInput,
} from './messages/study.ts';
import { payoutWorkflow } from './payout.ts';
import { sendApprovedOffers } from './offer.ts';
import { handleReviewDecisions, recruit } from './recruitment.ts';
import { nextStudyStatus, type StudyStatusAction } from './study-transitions.ts';

/** Everything a study's workflow knows; its status changes only while holding the workflow's lock. */
interface StudyWorkflowState {
  status: StudyStatus;
  /** How many settled tester reports the sessions have told of: a reason to look again. */
  reportsSettled: number;
  /** Matching should run (activation, a freed place, a resume) once the study is active. */
  matchingWanted: boolean;
  /** Approved outreach messages whose offers are not started yet (held while paused). */
  approvedOffers: ApprovedOffer[];
}

const refuse = (message: string) => ApplicationFailure.create({ type: INVALID_STUDY_TRANSITION, message });

const { recordStudyStatus, studyTargetReached, paymentsToPayOut } = proxyActivities<StudyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

const studyReport = proxyActivities<AiActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', nonRetryableErrorTypes: [AGENT_INPUT_ERROR] },
});
/** A completed study re-checks its tester reports this often at first, doubling up to the max. */
const REPORT_CHECK_FIRST_MS = 60_000;
const REPORT_CHECK_MAX_MS = 15 * 60_000;

/**
 * Owns a study's life: created in draft, it takes no testers until the payment signal makes it
 * active; then it can be paused and resumed; once its target number of sessions is confirmed it is
 * completed and its testers are paid out; archiving ends it. Every change is recorded in the
 * database by an activity before the query or the update reports it, one change at a time.
 */
export async function studyWorkflow(input: StudyWorkflowInput): Promise<void> {
  const { studyId } = input;
  const state: StudyWorkflowState = {
    status: input.status ?? 'draft',
    reportsSettled: 0,
    matchingWanted: true,
    approvedOffers: [],
  };
  const lock = new Mutex();
  const running = () => state.status === 'active' || state.status === 'paused';

  /** Records the next status; only called while holding the lock. */
  async function moveTo(next: StudyStatus): Promise<StudyStatus> {
    await recordStudyStatus({ studyId, status: next });
    state.status = next;
    return next;
  }

  setHandler(studyStatusQuery, () => state.status);
  setHandler(sessionReportedSignal, () => {
    state.reportsSettled += 1;
  });
  setHandler(paymentConfirmedSignal, () =>
    lock.runExclusive(async () => {
      if (state.status === 'draft') await moveTo('active');
    }),
  );
  // The study is completed once its target number of sessions is confirmed; paused studies count too.
  setHandler(sessionConfirmedSignal, async () => {
    const completed = await lock.runExclusive(async () => {
      if (!running() || !(await studyTargetReached({ studyId }))) return false;
      await moveTo('completed');
      return true;
    });
    if (!completed) return;
    await startPayouts(studyId);
    await reportStudy(
      studyId,
      () => state.reportsSettled,
      () => state.status === 'archived',
    );
  });
  setHandler(
    changeStudyStatusUpdate,
    (action) =>
      lock.runExclusive(async () => {
        const transition = nextStudyStatus(state.status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
        // A resumed study looks for testers again: places may have been freed while it was paused.
        if (transition.next === 'active') state.matchingWanted = true;
        return moveTo(transition.next);
      }),
    {
      // A change in flight may make the action valid (payment then pause), so only a settled status
      // is judged here; the handler judges again once it holds the lock.
      validator: (action: StudyStatusAction) => {
        if (lock.isLocked()) return;
        const transition = nextStudyStatus(state.status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
      },
    },
  );

  handleReviewDecisions(
    () => (state.status === 'active' || state.status === 'paused' ? undefined : state.status),
    () => {
      state.matchingWanted = true;
    },
    (offer) => state.approvedOffers.push(offer),
  );

  // Recruitment (DESIGN.md, "The spine"): once the study is paid, matching proposes testers for
  // its places, pending the business's review; again after a freed place or a resume, while active.
  // Each approved message goes out as an offer while the study is active.
  const recruiting = {
    active: () => state.status === 'active',
    over: () => state.status === 'completed' || state.status === 'archived',
    archived: () => state.status === 'archived',
  };
  await Promise.all([
    recruit(studyId, recruiting, state),
    sendApprovedOffers(studyId, recruiting, state.approvedOffers),
  ]);

  // A completed study lives on until it is archived: archiving is still a change it answers.
  await condition(() => state.status === 'archived');
  await condition(allHandlersFinished);
}

/**
 * One payout workflow per unpaid payment (spec: a completed study triggers payout to its testers).
 * They outlive this workflow; one already started, by POST /api/billing/payout, is left running.
 */
async function startPayouts(studyId: string): Promise<void> {
  for (const paymentId of await paymentsToPayOut({ studyId })) {
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
async function reportStudy(studyId: string, settled: () => number, archived: () => boolean): Promise<void> {
  for (let delay = REPORT_CHECK_FIRST_MS; ; delay = Math.min(delay * 2, REPORT_CHECK_MAX_MS)) {
    const seen = settled();
    if ((await studyReport.studyReportProgress({ studyId })).waiting === 0) break;
    await condition(() => settled() !== seen || archived(), delay);
    if (archived()) return;
  }
  const aggregateJobId = uuid4();
  if (!(await studyReport.queueStudyReport({ studyId, aggregateJobId }))) {
    log.info('The completed study has no tester report to aggregate', { studyId });
    return;
  }
  await startChild(agent4Workflow, {
    workflowId: agent4WorkflowId(aggregateJobId),
    args: [{ jobId: aggregateJobId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
}
