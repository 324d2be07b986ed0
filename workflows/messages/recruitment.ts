// The messages of a study's recruitment (workflows/recruitment.ts, run inside the study's
// workflow, id `study:<studyId>`): the proposal and outreach decisions the API sends as updates,
// the signals that free a place or hold an offer, and the recruitment query. Dependency-free.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

export interface ProposalDecision {
  readonly proposalId: string;
  /** The business user or admin who decided. */
  readonly decidedBy: string;
}

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
  /** Capacity reviews of the study waiting for an admin's decision (as of the last matching). */
  readonly pendingCapacityReviews: number;
}

/** What recruitment hands to the study's next run when the workflow continues as new. */
export interface RecruitmentCarried {
  readonly lastMatchedAt: string | null;
  readonly pendingCapacityReviews: number;
  /** A capacity decision (or a matching run) may have a rejection to tell the business of. */
  readonly noticesWanted: boolean;
  /** ISO 8601: when the matching recheck (MATCHING_RECHECK after the last look) is due. */
  readonly recheckAt: string | null;
}

export interface OutreachApproval {
  readonly outreachId: string;
  /** The business user or admin who approved. */
  readonly approvedBy: string;
}
/** An approved message waiting to go out as an offer (held while the study is paused). */
export interface ApprovedOffer {
  readonly outreachId: string;
  readonly scheduledSendAt: string;
}

/** The business approves a proposal: its outreach message is drafted (pending review). */
export const approveProposalUpdate = defineUpdate<ProposalApproval, [ProposalDecision]>('approveProposal');
/** The business skips a proposal: no message; matching proposes another tester for the place. */
export const rejectProposalUpdate = defineUpdate<{ skippedAt: string }, [ProposalRejection]>(
  'rejectProposal',
);
/** Sent by the API when a person rejects an outreach message (its id): the offer's place is free again. */
export const outreachRejectedSignal = defineSignal<[string]>('outreachRejected');
/** Sent by an offer's workflow (the message's id) once it is declined, expired or withdrawn. */
export const offerClosedSignal = defineSignal<[string]>('offerClosed');
/** Sent by an offer's workflow that found the study paused as it was to go out: sent once resumed. */
export const offerHeldSignal = defineSignal<[ApprovedOffer]>('offerHeld');
/** Sent by the API when an admin decides one of the study's capacity reviews (its id). */
export const capacityDecidedSignal = defineSignal<[string]>('capacityDecided');
/** A person approves a pending outreach message: it is scheduled and sent as the study's offer. */
export const approveOutreachUpdate = defineUpdate<
  { approvedAt: string; scheduledSendAt: string },
  [OutreachApproval]
>('approveOutreach');
export const recruitmentQuery = defineQuery<RecruitmentState>('recruitment');
