import {
  ApplicationFailure,
  condition,
  log,
  patched,
  proxyActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { CapacityNoticeActivities } from '../activities/matching/capacity-notice-activities.ts';
import type { MatchingActivities } from '../activities/matching/matching-activities.ts';
import type { OfferActivities } from '../activities/outreach/offer-activities.ts';
import type { OutreachActivities } from '../activities/outreach/outreach-activities.ts';
import { failureOfType, OUTREACH_DECISION_REFUSED, PROPOSAL_DECISION_REFUSED } from '../lib/failures.ts';
import {
  approveOutreachUpdate,
  approveProposalUpdate,
  capacityDecidedSignal,
  offerClosedSignal,
  outreachRejectedSignal,
  recruitmentQuery,
  rejectProposalUpdate,
  type ApprovedOffer,
  type OutreachApproval,
  type ProposalDecision,
  type ProposalRejection,
  type RecruitmentCarried,
} from './messages/recruitment.ts';
import { deliverAll, startDelivery } from './notification.ts';

/**
 * Matching runs again at least this often while the study is active, whatever it was told: a
 * place freed by a signal that never arrived (the API lost it) is filled within this time.
 */
export const MATCHING_RECHECK = '6 hours';
const MATCHING_RECHECK_MS = 6 * 60 * 60 * 1000;

/** Recruitment's own state, held by the study's workflow so that a run continuing as new hands it on. */
export type RecruitmentProgress = { -readonly [K in keyof RecruitmentCarried]: RecruitmentCarried[K] };

/** Where recruitment starts: the last run's state, or a study's first run. */
export const recruitmentProgress = (carried?: RecruitmentCarried): RecruitmentProgress => ({
  lastMatchedAt: carried?.lastMatchedAt ?? null,
  pendingCapacityReviews: carried?.pendingCapacityReviews ?? 0,
  noticesWanted: carried?.noticesWanted ?? false,
  recheckAt: carried?.recheckAt ?? null,
});

const { proposeTesters, noticeCapacityRejections, closePendingCapacityReviews } = proxyActivities<
  MatchingActivities & CapacityNoticeActivities
>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// Drafting asks the AI providers in turn (30 s each at most) before the local analyst writes it. A
// decision is a person's request waiting for its answer: a few attempts, then the update fails
// (the API answers 500) rather than keeping the request, and the study's handlers, waiting.
const decisions = proxyActivities<OutreachActivities>({
  startToCloseTimeout: '3 minutes',
  retry: {
    maximumAttempts: 5,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: [PROPOSAL_DECISION_REFUSED],
  },
});

const approvals = proxyActivities<OfferActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 5,
    maximumInterval: '30 seconds',
    nonRetryableErrorTypes: [OUTREACH_DECISION_REFUSED],
  },
});

const refuse = (message: string, type = PROPOSAL_DECISION_REFUSED) =>
  ApplicationFailure.create({ type, message });

/** A decision that no longer applies (decided meanwhile) fails the update, not the workflow. */
async function refusingStale<T>(decide: () => Promise<T>, type = PROPOSAL_DECISION_REFUSED): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    const refusal = failureOfType(error, type);
    throw refusal ? refuse(refusal.message, type) : error;
  }
}

/** What the study's workflow gives the review decisions it takes. */
export interface ReviewDecisionHooks {
  /** Undefined while the study recruits, else the status that refuses a decision. */
  readonly recruitingStatus: () => string | undefined;
  /** A skip, a rejected message or a closed offer frees a place (the recruitment loop looks again). */
  readonly placeFreed: () => void;
  readonly offerApproved: (offer: ApprovedOffer) => void;
  /** A closed offer's id (its `offerClosed`). */
  readonly offerClosed?: (outreachId: string) => void;
  /** Each decision's update as it starts (before continuing as new, the study waits for a quiet task). */
  readonly updateStarted?: () => void;
  /** The failure that refuses any new decision now (the run is continuing as new), if any. */
  readonly refuseNew?: () => ApplicationFailure | undefined;
}

/**
 * The human steps between matching and offers: each proposal decision and each outreach approval
 * is an update that answers once it is recorded, taken only while the study recruits. A skip, a
 * rejected message or a closed offer frees a place; an approved message is handed to
 * `offerApproved`.
 */
export function handleReviewDecisions({
  recruitingStatus,
  placeFreed,
  offerApproved,
  offerClosed = () => undefined,
  updateStarted = () => undefined,
  refuseNew = () => undefined,
}: ReviewDecisionHooks): void {
  const judge = (what = 'its proposals', type = PROPOSAL_DECISION_REFUSED) => {
    const refusal = refuseNew();
    if (refusal) throw refusal;
    const status = recruitingStatus();
    if (status) throw refuse(`Study must be active or paused to decide ${what} (it is ${status})`, type);
  };
  setHandler(
    approveOutreachUpdate,
    (approval) => {
      updateStarted();
      return refusingStale(async () => {
        const approvedAt = new Date().toISOString();
        const approved = await approvals.approveOutreach({ ...approval, approvedAt });
        offerApproved({ outreachId: approval.outreachId, scheduledSendAt: approved.scheduledSendAt });
        return approved;
      }, OUTREACH_DECISION_REFUSED);
    },
    { validator: (_approval: OutreachApproval) => judge('its outreach', OUTREACH_DECISION_REFUSED) },
  );
  setHandler(offerClosedSignal, (outreachId) => {
    offerClosed(outreachId);
    placeFreed();
  });
  setHandler(
    approveProposalUpdate,
    (decision) => {
      updateStarted();
      return refusingStale(async () => {
        const outreachId = uuid4();
        const decidedAt = new Date().toISOString();
        const { acceptedAt } = await decisions.acceptProposal({ ...decision, decidedAt, outreachId });
        return { outreachId, acceptedAt };
      });
    },
    { validator: (_decision: ProposalDecision) => judge() },
  );
  setHandler(
    rejectProposalUpdate,
    (rejection) => {
      updateStarted();
      return refusingStale(async () => {
        const skipped = await decisions.skipProposal({ ...rejection, decidedAt: new Date().toISOString() });
        placeFreed();
        return skipped;
      });
    },
    { validator: (_rejection: ProposalRejection) => judge() },
  );
  setHandler(outreachRejectedSignal, () => placeFreed());
}

/**
 * Matching, each time the study wants it (its activation, a freed place, a resume, a capacity
 * decision) and every MATCHING_RECHECK besides, while it is active: a paused study makes no new
 * proposals. A short segment gets a capacity review, whose decision the next run follows. The
 * business is told of each rejected review once, whatever the study's status, until it is archived
 * (after each decision, and after each matching run in case a decision's signal was lost).
 *
 * True once the study is archived; false when it stopped at a wait because the workflow continues
 * as new (`draining`, given only to runs that may: the recheck is then due at `progress.recheckAt`,
 * which the next run keeps, and messages are handed over once their workflows have started).
 */
export async function recruit(
  studyId: string,
  wants: { readonly active: () => boolean; readonly over: () => boolean; readonly archived: () => boolean },
  state: { matchingWanted: boolean },
  progress: RecruitmentProgress,
  draining?: () => boolean,
): Promise<boolean> {
  const stopping = draining ?? (() => false);
  const deliveries: Promise<void>[] = [];
  setHandler(recruitmentQuery, () => ({
    matchingWanted: state.matchingWanted,
    lastMatchedAt: progress.lastMatchedAt,
    pendingCapacityReviews: progress.pendingCapacityReviews,
  }));
  // A decided review changes the segments' shares (matching looks again) and may need telling.
  setHandler(capacityDecidedSignal, () => {
    state.matchingWanted = true;
    progress.noticesWanted = true;
  });
  const telling = patched('capacity-reviews') ? tellRejections() : Promise.resolve(true);
  for (;;) {
    const wake = () => wants.over() || (state.matchingWanted && wants.active()) || stopping();
    // The recheck's timer runs only while the study is active: a draft or paused one waits untimed.
    let asked = true;
    if (!wants.active()) await condition(wake);
    else if (!draining) asked = await condition(wake, MATCHING_RECHECK);
    else {
      progress.recheckAt ??= new Date(Date.now() + MATCHING_RECHECK_MS).toISOString();
      const wait = Date.parse(progress.recheckAt) - Date.now();
      asked = wait > 0 ? await condition(wake, wait) : false;
    }
    if (wants.over() || stopping()) break;
    if (!asked) {
      state.matchingWanted = true;
      progress.recheckAt = null;
      continue;
    }
    state.matchingWanted = false;
    const matched = await proposeTesters({ studyId });
    progress.lastMatchedAt = new Date().toISOString();
    progress.pendingCapacityReviews = matched.pendingReviews ?? 0;
    progress.noticesWanted = true;
    if (draining) progress.recheckAt = new Date(Date.now() + MATCHING_RECHECK_MS).toISOString();
    log.info('Matching proposed testers', { studyId, ...matched });
  }
  // Recruitment is over (completed, archived): a review still pending decides nothing any more.
  if (wants.over() && patched('close-capacity-reviews')) {
    await closePendingCapacityReviews({ studyId });
    progress.pendingCapacityReviews = 0;
  }
  const told = await telling;
  if (!told) return false;
  await Promise.all(deliveries);
  return true;

  /** True once archived; false when stopped for the next run (the notices still wanted are carried). */
  async function tellRejections(): Promise<boolean> {
    for (;;) {
      await condition(() => progress.noticesWanted || wants.archived() || stopping());
      if (!progress.noticesWanted) return wants.archived();
      if (stopping()) return false;
      progress.noticesWanted = false;
      const notices = await noticeCapacityRejections({ studyId });
      if (!notices.length) continue;
      // A run that may continue as new hands each message to its workflow before it goes on.
      if (draining) deliveries.push((await startDeliveries(notices)).delivered);
      else deliveries.push(deliverAll(notices));
    }
  }
}

/**
 * Starts each queued message's delivery workflow (as `deliverAll`, one after the other) and
 * answers once all have started, with the promise of their outcomes.
 */
async function startDeliveries(ids: readonly (string | null)[]): Promise<{ delivered: Promise<void> }> {
  const results: Promise<unknown>[] = [];
  for (const id of ids) {
    const child = id ? await startDelivery(id) : undefined;
    if (child) results.push(child.result().catch(() => undefined));
  }
  return { delivered: Promise.all(results).then(() => undefined) };
}
