import {
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  log,
  proxyActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { MatchingActivities } from '../activities/matching/matching-activities.ts';
import type { OutreachActivities, ProposalDecision } from '../activities/outreach/outreach-activities.ts';
import { failureOfType, PROPOSAL_DECISION_REFUSED } from '../lib/failures.ts';

export type { ProposalDecision };

export interface ProposalApproval {
  readonly outreachId: string;
  readonly acceptedAt: string;
}
export interface ProposalRejection extends ProposalDecision {
  readonly reason: string | null;
}

/** What recruitment waits for, for the Temporal Web UI and operators. */
export interface RecruitmentState {
  readonly matchingWanted: boolean;
  readonly lastMatchedAt: string | null;
}

/** The business approves a proposal: its outreach message is drafted (pending review). */
export const approveProposalUpdate = defineUpdate<ProposalApproval, [ProposalDecision]>('approveProposal');
/** The business skips a proposal: no message; matching proposes another tester for the place. */
export const rejectProposalUpdate = defineUpdate<{ skippedAt: string }, [ProposalRejection]>(
  'rejectProposal',
);
/** Sent by the API when a person rejects an outreach message (its id): the offer's place is free again. */
export const outreachRejectedSignal = defineSignal<[string]>('outreachRejected');
export const recruitmentQuery = defineQuery<RecruitmentState>('recruitment');

/**
 * Matching runs again at least this often while the study is active, whatever it was told: a
 * place freed by a signal that never arrived (the API lost it) is filled within this time.
 */
export const MATCHING_RECHECK = '6 hours';

const { proposeTesters } = proxyActivities<MatchingActivities>({
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

const refuse = (message: string) => ApplicationFailure.create({ type: PROPOSAL_DECISION_REFUSED, message });

/** A decision the proposal no longer takes (decided meanwhile) fails the update, not the workflow. */
async function refusingStale<T>(decide: () => Promise<T>): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    const refusal = failureOfType(error, PROPOSAL_DECISION_REFUSED);
    throw refusal ? refuse(refusal.message) : error;
  }
}

/**
 * The human step between matching and outreach: each proposal decision is an update that answers
 * once it is recorded, taken only while the study recruits (`recruitingStatus` answers undefined
 * when it does, else the status that refuses); a skip or a rejected offer frees a place, and
 * `placeFreed` tells the recruitment loop.
 */
export function handleProposalDecisions(
  recruitingStatus: () => string | undefined,
  placeFreed: () => void,
): void {
  const judge = () => {
    const status = recruitingStatus();
    if (status) throw refuse(`Study must be active or paused to decide its proposals (it is ${status})`);
  };
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
 * Matching, each time the study wants it (its activation, a freed place, a resume) and every
 * MATCHING_RECHECK besides, while it is active: a paused study makes no new proposals. Ends when
 * the study's recruitment is over (completed or archived).
 */
export async function recruit(
  studyId: string,
  wants: { readonly active: () => boolean; readonly over: () => boolean },
  state: { matchingWanted: boolean },
): Promise<void> {
  let lastMatchedAt: string | null = null;
  setHandler(recruitmentQuery, () => ({ matchingWanted: state.matchingWanted, lastMatchedAt }));
  for (;;) {
    const wake = () => wants.over() || (state.matchingWanted && wants.active());
    // The recheck's timer runs only while the study is active: a draft or paused one waits untimed.
    const asked = wants.active() ? await condition(wake, MATCHING_RECHECK) : (await condition(wake), true);
    if (wants.over()) return;
    if (!asked) {
      state.matchingWanted = true;
      continue;
    }
    state.matchingWanted = false;
    const matched = await proposeTesters({ studyId });
    lastMatchedAt = new Date().toISOString();
    log.info('Matching proposed testers', { studyId, ...matched });
  }
}
