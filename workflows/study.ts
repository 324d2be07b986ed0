import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  ParentClosePolicy,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  startChild,
  uuid4,
  workflowInfo,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { Mutex } from 'async-mutex';
import type { AiActivities } from '../activities/ai/ai-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import type { PrototypeAuditActivities } from '../activities/studies/prototype-audit-activities.ts';
import { AGENT_INPUT_ERROR, INVALID_STUDY_TRANSITION, STUDY_RUN_SWITCHING } from '../lib/failures.ts';
import type { StudyStatus } from '../lib/domain.ts';
import { agent4Workflow } from './agents.ts';
import { agent4WorkflowId } from './messages/agents.ts';
import { payoutWorkflowId } from './messages/payout.ts';
import type { ApprovedOffer } from './messages/recruitment.ts';
import {
  changeStudyStatusUpdate,
  MIN_STUDY_HISTORY_LIMIT,
  paymentConfirmedSignal,
  sessionCancelledSignal,
  sessionConfirmedSignal,
  sessionReportedSignal,
  STUDY_HISTORY_LIMIT,
  studyStatusQuery,
  type StudyCompletionStep,
  type StudyWorkflowInput,
} from './messages/study.ts';
import { payoutWorkflow } from './payout.ts';
import { sendApprovedOffers } from './offer.ts';
import { handleReviewDecisions, recruit, recruitmentProgress } from './recruitment.ts';
import { nextStudyStatus, type StudyStatusAction } from './study-transitions.ts';

/** The patch under which a study's workflow continues as new (docs/decisions/studies.md). */
export const STUDY_CONTINUE_AS_NEW_PATCH = 'study-continue-as-new';
/** The patch under which an activated study has its prototype audited. */
export const STUDY_PROTOTYPE_AUDIT_PATCH = 'study-prototype-audit';
/** How many payout workflows the completed study starts in one go. */
const PAYOUTS_AT_ONCE = 50;

/** Everything a study's workflow knows; its status changes only while holding the workflow's lock. */
interface StudyWorkflowState {
  status: StudyStatus;
  /** How many settled tester reports the sessions have told of: a reason to look again. */
  reportsSettled: number;
  /** Matching should run (activation, a freed place, a resume) once the study is active. */
  matchingWanted: boolean;
  /** Approved outreach messages whose offers are not started yet (held while paused). */
  approvedOffers: ApprovedOffer[];
  /** Offers started and not known to have closed (withdrawn when the study is archived). */
  liveOffers: Set<string>;
  /** Session confirmations not yet checked against the target (runs that continue as new). */
  confirmationsToCheck: number;
  /** After completion: payouts to start, then the report (runs that continue as new). */
  completion: StudyCompletionStep;
  payoutsToStart: string[] | null;
}

const refuse = (message: string) => ApplicationFailure.create({ type: INVALID_STUDY_TRANSITION, message });
/** A draining run takes no new update (the caller sends it again to the next run: `sendOverRunSwitch`). */
const switching = () =>
  ApplicationFailure.create({
    type: STUDY_RUN_SWITCHING,
    message: "The study's workflow is continuing as new",
  });

const { recordStudyStatus, studyTargetReached, paymentsToPayOut } = proxyActivities<StudyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

// Bounded: the study does not wait on its audit, and a run continues as new only once this handler ends.
const prototypeAudit = proxyActivities<PrototypeAuditActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', maximumAttempts: 10 },
});

/** Queues the audit of the study's prototype; a study whose audit could not be queued runs without one. */
async function auditPrototypeOf(studyId: string): Promise<void> {
  try {
    const outcome = await prototypeAudit.auditPrototype({ studyId });
    log.info('The prototype audit', { studyId, ...outcome });
  } catch (error) {
    log.warn('The prototype audit could not be queued', { studyId, error: String(error) });
  }
}

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
 *
 * A study lives for months and its history grows with every tester, offer and confirmation: once
 * a run's history reaches `historyLimit` events (or the server suggests it), the run stops taking
 * new work at its next wait, lets its handlers finish, and continues as new with everything it
 * knows (`StudyCarriedState`). Runs started before that existed (no `study-continue-as-new`
 * marker) replay and end as they began.
 */
export async function studyWorkflow(input: StudyWorkflowInput): Promise<void> {
  const { studyId, carried } = input;
  const continuable = patched(STUDY_CONTINUE_AS_NEW_PATCH);
  const historyLimit = Math.max(input.historyLimit ?? STUDY_HISTORY_LIMIT, MIN_STUDY_HISTORY_LIMIT);
  const state: StudyWorkflowState = {
    status: input.status ?? 'draft',
    reportsSettled: carried?.reportsSettled ?? 0,
    matchingWanted: carried?.matchingWanted ?? true,
    approvedOffers: [...(carried?.approvedOffers ?? [])],
    liveOffers: new Set(carried?.liveOffers),
    confirmationsToCheck: carried?.confirmationsToCheck ?? 0,
    completion: carried?.completion ?? 'pending',
    payoutsToStart: carried?.payoutsToStart ? [...carried.payoutsToStart] : null,
  };
  const recruitment = recruitmentProgress(carried?.recruitment);
  const lock = new Mutex();
  /** Updates whose handlers have started in this run (the switch waits for a task with none). */
  let updatesStarted = 0;
  const running = () => state.status === 'active' || state.status === 'paused';
  const archived = () => state.status === 'archived';
  /** The run has grown long enough: every wait of the body ends and the run continues as new. */
  const draining = () => {
    if (!continuable) return false;
    const { historyLength, continueAsNewSuggested } = workflowInfo();
    return (
      historyLength >= historyLimit || (continueAsNewSuggested && historyLength >= MIN_STUDY_HISTORY_LIMIT)
    );
  };

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
  setHandler(paymentConfirmedSignal, async () => {
    const activated = await lock.runExclusive(async () => {
      if (state.status !== 'draft') return false;
      await moveTo('active');
      return true;
    });
    // The prototype's audit runs beside the study from its activation (docs/decisions/audits.md).
    if (activated && patched(STUDY_PROTOTYPE_AUDIT_PATCH)) await auditPrototypeOf(studyId);
  });
  // The study is completed once its target number of sessions is confirmed; paused studies count too.
  if (continuable) {
    // Counted here, checked by the body (`checkConfirmations`): a run continuing as new carries the count.
    setHandler(sessionConfirmedSignal, () => {
      state.confirmationsToCheck += 1;
    });
  } else {
    setHandler(sessionConfirmedSignal, async () => {
      const completed = await lock.runExclusive(async () => {
        if (!running() || !(await studyTargetReached({ studyId }))) return false;
        await moveTo('completed');
        return true;
      });
      if (!completed) return;
      await startPayouts(studyId);
      await reportStudy(studyId, () => state.reportsSettled, archived);
    });
  }
  setHandler(
    changeStudyStatusUpdate,
    (action) => {
      updatesStarted += 1;
      return lock.runExclusive(async () => {
        const transition = nextStudyStatus(state.status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
        // A resumed study looks for testers again: places may have been freed while it was paused.
        if (transition.next === 'active') state.matchingWanted = true;
        return moveTo(transition.next);
      });
    },
    {
      // A change in flight may make the action valid (payment then pause), so only a settled status
      // is judged here; the handler judges again once it holds the lock.
      validator: (action: StudyStatusAction) => {
        if (draining()) throw switching();
        if (lock.isLocked()) return;
        const transition = nextStudyStatus(state.status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
      },
    },
  );

  // A session cancelled (its tester suspended) frees its place for the next candidate.
  setHandler(sessionCancelledSignal, () => {
    // A history an earlier worker recorded took this signal without acting on it: so it stays.
    if (patched('session-cancelled')) state.matchingWanted = true;
  });

  handleReviewDecisions({
    recruitingStatus: () => (running() ? undefined : state.status),
    placeFreed: () => {
      state.matchingWanted = true;
    },
    offerApproved: (offer) => state.approvedOffers.push(offer),
    offerClosed: (outreachId) => state.liveOffers.delete(outreachId),
    updateStarted: () => {
      updatesStarted += 1;
    },
    refuseNew: () => (draining() ? switching() : undefined),
  });

  // Recruitment (DESIGN.md, "The spine"): once the study is paid, matching proposes testers for
  // its places, pending the business's review; again after a freed place or a resume, while active.
  // Each approved message goes out as an offer while the study is active.
  const recruiting = {
    active: () => state.status === 'active',
    over: () => state.status === 'completed' || state.status === 'archived',
    archived,
  };
  if (!continuable) {
    await Promise.all([
      recruit(studyId, recruiting, state, recruitment),
      sendApprovedOffers(studyId, recruiting, state.approvedOffers),
    ]);
    // A completed study lives on until it is archived: archiving is still a change it answers.
    await condition(archived);
    await condition(allHandlersFinished);
    return;
  }

  // Each part ends true once its work is over for good (the study archived), or false where it
  // stopped because the run is continuing as new.
  const finished = await Promise.all([
    recruit(studyId, recruiting, state, recruitment, draining),
    sendApprovedOffers(studyId, recruiting, state.approvedOffers, { live: state.liveOffers, draining }),
    checkConfirmations(),
    afterCompletion(),
  ]);
  // Handlers under way finish in this run and answer their callers; what they change is carried.
  // Signals and updates that reach the server meanwhile go to the next run.
  while (!allHandlersFinished()) await condition(allHandlersFinished);
  if (finished.every(Boolean)) return;
  // An update completed in the task that continues as new may be applied again to the next run
  // (temporalio/temporal#6375: the caller then hears a refusal of what was done). So the run
  // continues as new from a task of its own, reached with no update started since the last one
  // finished.
  for (;;) {
    const started = updatesStarted;
    await sleep(1);
    if (updatesStarted === started && allHandlersFinished()) break;
    while (!allHandlersFinished()) await condition(allHandlersFinished);
  }
  const info = workflowInfo();
  log.info('The study continues as new', {
    studyId,
    historyLength: info.historyLength,
    run: carried?.run ?? 1,
  });
  await continueAsNew<typeof studyWorkflow>({
    studyId,
    status: state.status,
    ...(input.historyLimit === undefined ? {} : { historyLimit: input.historyLimit }),
    carried: {
      reportsSettled: state.reportsSettled,
      matchingWanted: state.matchingWanted,
      approvedOffers: [...state.approvedOffers],
      liveOffers: [...state.liveOffers],
      confirmationsToCheck: state.confirmationsToCheck,
      completion: state.completion,
      payoutsToStart: state.payoutsToStart && [...state.payoutsToStart],
      recruitment: { ...recruitment },
      run: (carried?.run ?? 1) + 1,
    },
  });

  /**
   * Each batch of confirmations looks once at the study's confirmed sessions against its target
   * (paused studies count too); at the target the study is completed.
   */
  async function checkConfirmations(): Promise<boolean> {
    for (;;) {
      await condition(() => state.confirmationsToCheck > 0 || recruiting.over() || draining());
      if (recruiting.over()) return true;
      if (draining()) return false;
      state.confirmationsToCheck = 0;
      const completed = await lock.runExclusive(async () => {
        if (!running() || !(await studyTargetReached({ studyId }))) return false;
        await moveTo('completed');
        return true;
      });
      if (completed) {
        state.completion = 'payouts';
        return true;
      }
    }
  }

  /** Once completed: a payout for every unpaid payment, then the report (Agent 4). */
  async function afterCompletion(): Promise<boolean> {
    await condition(() => state.completion !== 'pending' || archived() || draining());
    if (state.completion === 'pending') return archived();
    if (state.completion === 'payouts') {
      const toStart = (state.payoutsToStart ??= await paymentsToPayOut({ studyId }));
      while (toStart.length) {
        if (draining()) return false;
        const batch = toStart.slice(0, PAYOUTS_AT_ONCE);
        await Promise.all(batch.map(startPayout));
        toStart.splice(0, batch.length);
      }
      state.payoutsToStart = null;
      state.completion = 'report';
    }
    if (state.completion === 'report') {
      if (!(await reportStudy(studyId, () => state.reportsSettled, archived, draining))) return false;
      state.completion = 'done';
    }
    return true;
  }
}

/**
 * One payout workflow per unpaid payment (spec: a completed study triggers payout to its testers).
 * They outlive this workflow; one already started, by POST /api/billing/payout, is left running.
 */
async function startPayouts(studyId: string): Promise<void> {
  for (const paymentId of await paymentsToPayOut({ studyId })) await startPayout(paymentId);
}

async function startPayout(paymentId: string): Promise<void> {
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

/**
 * DESIGN.md: completed -> Agent 4 aggregate report, without anyone asking. Waits until every
 * confirmed session has its tester report (Agent 3 may wait for a provider): each session tells
 * when its report settles, and a durable timer looks again in case a signal was lost. Then queues
 * the study's Agent 4 job and runs it as `agent4:<id>`, outliving this workflow. Archiving the
 * study ends the wait. POST /api/reports/job/:id stays for a report on demand. False when the
 * run stopped waiting to continue as new (`draining`).
 */
async function reportStudy(
  studyId: string,
  settled: () => number,
  archived: () => boolean,
  draining: () => boolean = () => false,
): Promise<boolean> {
  for (let delay = REPORT_CHECK_FIRST_MS; ; delay = Math.min(delay * 2, REPORT_CHECK_MAX_MS)) {
    const seen = settled();
    if ((await studyReport.studyReportProgress({ studyId })).waiting === 0) break;
    await condition(() => settled() !== seen || archived() || draining(), delay);
    if (archived()) return true;
    // The run continues as new: the next one takes the wait up again.
    if (draining()) return false;
  }
  const aggregateJobId = uuid4();
  if (!(await studyReport.queueStudyReport({ studyId, aggregateJobId }))) {
    log.info('The completed study has no tester report to aggregate', { studyId });
    return true;
  }
  await startChild(agent4Workflow, {
    workflowId: agent4WorkflowId(aggregateJobId),
    args: [{ jobId: aggregateJobId }],
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
  return true;
}
