import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  defineSignal,
  defineUpdate,
  log,
  proxyActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { MatchingActivities } from '../activities/matching/matching-activities.ts';
import type { OutreachActivities, ProposalDecision } from '../activities/outreach/outreach-activities.ts';
import { PROPOSAL_NOT_PENDING } from '../lib/failures.ts';

export type { ProposalDecision };

export interface ProposalApproval {
  readonly outreachId: string;
  readonly acceptedAt: string;
}
export interface ProposalRejection extends ProposalDecision {
  readonly reason: string | null;
}

/** The business approves a proposal: its outreach message is drafted (pending review). */
export const approveProposalUpdate = defineUpdate<ProposalApproval, [ProposalDecision]>('approveProposal');
/** The business skips a proposal: no message; matching proposes another tester for the place. */
export const rejectProposalUpdate = defineUpdate<{ skippedAt: string }, [ProposalRejection]>(
  'rejectProposal',
);
/** Sent by the API when a person rejects an outreach message (its id): the offer's place is free again. */
export const outreachRejectedSignal = defineSignal<[string]>('outreachRejected');

const { proposeTesters } = proxyActivities<MatchingActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// Drafting asks the AI providers in turn (30 s each at most) before the local analyst writes it.
const decisions = proxyActivities<OutreachActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { maximumInterval: '1 minute', nonRetryableErrorTypes: [PROPOSAL_NOT_PENDING] },
});

/** A decision the proposal no longer takes (decided meanwhile) fails the update, not the workflow. */
async function refusingStale<T>(decide: () => Promise<T>): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    if (
      error instanceof ActivityFailure &&
      error.cause instanceof ApplicationFailure &&
      error.cause.type === PROPOSAL_NOT_PENDING
    ) {
      throw ApplicationFailure.create({ type: PROPOSAL_NOT_PENDING, message: error.cause.message });
    }
    throw error;
  }
}

/**
 * The human step between matching and outreach: each proposal decision is an update that answers
 * once it is recorded; a skip frees the place, and `placeFreed` tells the recruitment loop.
 */
export function handleProposalDecisions(placeFreed: () => void): void {
  setHandler(approveProposalUpdate, (decision) =>
    refusingStale(async () => {
      const outreachId = uuid4();
      const { acceptedAt } = await decisions.acceptProposal({ ...decision, outreachId });
      return { outreachId, acceptedAt };
    }),
  );
  setHandler(outreachRejectedSignal, () => placeFreed());
  setHandler(rejectProposalUpdate, (rejection) =>
    refusingStale(async () => {
      const skipped = await decisions.skipProposal(rejection);
      placeFreed();
      return skipped;
    }),
  );
}

/**
 * Matching, each time the study wants it (its activation, a freed place, a resume), while it is
 * active: a paused study makes no new proposals. Ends when the study's recruitment is over.
 */
export async function recruit(
  studyId: string,
  wants: { readonly active: () => boolean; readonly over: () => boolean; readonly asked: () => boolean },
  answered: () => void,
): Promise<void> {
  for (;;) {
    await condition(() => wants.over() || (wants.asked() && wants.active()));
    if (wants.over()) return;
    answered();
    const matched = await proposeTesters({ studyId });
    log.info('Matching proposed testers', { studyId, ...matched });
  }
}
