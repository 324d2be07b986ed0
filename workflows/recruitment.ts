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
} from './messages/recruitment.ts';
import { deliverAll } from './notification.ts';

/**
 * Matching runs again at least this often while the study is active, whatever it was told: a
 * place freed by a signal that never arrived (the API lost it) is filled within this time.
 */
export const MATCHING_RECHECK = '6 hours';

const { proposeTesters, noticeCapacityRejections } = proxyActivities<
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

/**
 * The human steps between matching and offers: each proposal decision and each outreach approval
 * is an update that answers once it is recorded, taken only while the study recruits
 * (`recruitingStatus` answers undefined when it does, else the status that refuses). A skip, a
 * rejected message or a closed offer frees a place (`placeFreed` tells the recruitment loop); an
 * approved message is handed to `offerApproved`.
 */
export function handleReviewDecisions(
  recruitingStatus: () => string | undefined,
  placeFreed: () => void,
  offerApproved: (offer: ApprovedOffer) => void,
): void {
  const judge = (what = 'its proposals', type = PROPOSAL_DECISION_REFUSED) => {
    const status = recruitingStatus();
    if (status) throw refuse(`Study must be active or paused to decide ${what} (it is ${status})`, type);
  };
  setHandler(
    approveOutreachUpdate,
    (approval) =>
      refusingStale(async () => {
        const approvedAt = new Date().toISOString();
        const approved = await approvals.approveOutreach({ ...approval, approvedAt });
        offerApproved({ outreachId: approval.outreachId, scheduledSendAt: approved.scheduledSendAt });
        return approved;
      }, OUTREACH_DECISION_REFUSED),
    { validator: (_approval: OutreachApproval) => judge('its outreach', OUTREACH_DECISION_REFUSED) },
  );
  setHandler(offerClosedSignal, () => placeFreed());
  setHandler(
    approveProposalUpdate,
    (decision) =>
      refusingStale(async () => {
        const outreachId = uuid4();
        const decidedAt = new Date().toISOString();
        const { acceptedAt } = await decisions.acceptProposal({ ...decision, decidedAt, outreachId });
        return { outreachId, acceptedAt };
      }),
    { validator: (_decision: ProposalDecision) => judge() },
  );
  setHandler(
    rejectProposalUpdate,
    (rejection) =>
      refusingStale(async () => {
        const skipped = await decisions.skipProposal({ ...rejection, decidedAt: new Date().toISOString() });
        placeFreed();
        return skipped;
      }),
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
 */
export async function recruit(
  studyId: string,
  wants: { readonly active: () => boolean; readonly over: () => boolean; readonly archived: () => boolean },
  state: { matchingWanted: boolean },
): Promise<void> {
  let lastMatchedAt: string | null = null;
  let pendingCapacityReviews = 0;
  let noticesWanted = false;
  const deliveries: Promise<void>[] = [];
  setHandler(recruitmentQuery, () => ({
    matchingWanted: state.matchingWanted,
    lastMatchedAt,
    pendingCapacityReviews,
  }));
  // A decided review changes the segments' shares (matching looks again) and may need telling.
  setHandler(capacityDecidedSignal, () => {
    state.matchingWanted = true;
    noticesWanted = true;
  });
  const telling = patched('capacity-reviews') ? tellRejections() : Promise.resolve();
  for (;;) {
    const wake = () => wants.over() || (state.matchingWanted && wants.active());
    // The recheck's timer runs only while the study is active: a draft or paused one waits untimed.
    const asked = wants.active() ? await condition(wake, MATCHING_RECHECK) : (await condition(wake), true);
    if (wants.over()) break;
    if (!asked) {
      state.matchingWanted = true;
      continue;
    }
    state.matchingWanted = false;
    const matched = await proposeTesters({ studyId });
    lastMatchedAt = new Date().toISOString();
    pendingCapacityReviews = matched.pendingReviews ?? 0;
    noticesWanted = true;
    log.info('Matching proposed testers', { studyId, ...matched });
  }
  await telling;
  await Promise.all(deliveries);

  async function tellRejections(): Promise<void> {
    for (;;) {
      await condition(() => noticesWanted || wants.archived());
      if (!noticesWanted) return;
      noticesWanted = false;
      const notices = await noticeCapacityRejections({ studyId });
      if (notices.length) deliveries.push(deliverAll(notices));
    }
  }
}
