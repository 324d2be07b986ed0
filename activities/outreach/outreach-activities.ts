import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { insertOutreachMessage } from '../../db/repositories/outreach-messages.ts';
import {
  lockProposal,
  markProposalAccepted,
  markProposalSkipped,
  proposalContext,
} from '../../db/repositories/proposals.ts';
import { PROPOSAL_DECISION_REFUSED } from '../../lib/failures.ts';
import { formatMinorUnits, toMinorUnits } from '../../lib/money.ts';
import { AllProvidersUnavailableError, type Agents } from '../ai/agents.ts';
import { localOutreachDraft, type OutreachDraft, type OutreachInput } from '../ai/agents/outreach.ts';
import type { ProposalDecision } from '../../workflows/messages/recruitment.ts';

/** A decision as the workflow sends it: stamped with the workflow's time, which a retry finds again. */
export interface StampedDecision extends ProposalDecision {
  /** ISO 8601; stored as `accepted_at` or `skipped_at`. */
  readonly decidedAt: string;
}

const refused = (message: string) => ApplicationFailure.nonRetryable(message, PROPOSAL_DECISION_REFUSED);
const notPending = (status: string, verb: string) =>
  refused(`Proposal must be pending to ${verb} (it is ${status})`);

/** The payment as a tester reads it; a study that never went through checkout may hold any decimal. */
function payment(amount: string, currency: string): string {
  try {
    return formatMinorUnits(toMinorUnits(amount, currency, 'payout'), currency);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** Proposal decisions and the outreach drafts they lead to; the study workflow runs them. */
export function createOutreachActivities({ db, agents }: { db: Db; agents: Agents }) {
  /** The offer's words: the providers, or the local analyst's when every provider is down. */
  async function draft(input: OutreachInput): Promise<{ draft: OutreachDraft; usedFallback: boolean }> {
    try {
      const answer = await agents.draftOutreach(input);
      return { draft: answer.result, usedFallback: answer.usedFallback };
    } catch (error) {
      if (!(error instanceof AllProvidersUnavailableError)) throw error;
      // A person reviews every draft before it is sent: a plain one now beats a wait of hours.
      return { draft: localOutreachDraft(input), usedFallback: true };
    }
  }

  return {
    /**
     * Approves a pending proposal: drafts its outreach message (pending, for review) and stores
     * both in one transaction, the message under the id the workflow chose, so a retry finds it.
     * A proposal decided meanwhile is refused before any provider is asked, and again under the lock.
     */
    async acceptProposal(input: StampedDecision & { outreachId: string }): Promise<{ acceptedAt: string }> {
      const context = await asSystem(db, (tx) => proposalContext(tx, input.proposalId));
      if (!context) throw refused('Proposal not found');
      const retried = context.proposal_status === 'accepted';
      if (context.proposal_status !== 'pending' && !retried)
        throw notPending(context.proposal_status, 'approve');
      const channel = context.messaging_chat_id ? 'messaging' : 'email';
      const { draft: words, usedFallback } = await draft({
        channel,
        testerFirstName: context.tester_name?.trim().split(/\s+/)[0] || null,
        organizationName: context.organization_name,
        study: {
          title: context.title,
          taskCount: Number(context.task_count ?? 0),
          maxDurationMinutes: context.max_duration_minutes,
          devices: context.target_devices,
          compensation: payment(context.compensation_amount, context.compensation_currency),
          thinkAloud: context.require_think_aloud,
          recordsFacial: context.record_facial,
          recordsVoice: context.record_voice,
        },
      });
      return asSystem(db, async (tx) => {
        const proposal = await lockProposal(tx, input.proposalId);
        if (!proposal) throw refused('Proposal not found');
        // A retry of this very approval after its commit: answered as it stands.
        if (proposal.status === 'accepted' && proposal.outreach_id === input.outreachId) {
          return { acceptedAt: proposal.accepted_at!.toISOString() };
        }
        if (proposal.status !== 'pending') throw notPending(proposal.status, 'approve');
        const at = new Date(input.decidedAt);
        await markProposalAccepted(tx, proposal.id, input.decidedBy, at);
        await insertOutreachMessage(tx, {
          id: input.outreachId,
          organization_id: proposal.organization_id,
          study_id: proposal.study_id,
          tester_id: proposal.tester_id,
          proposal_id: proposal.id,
          recipient_email: context.tester_email,
          channel,
          subject: channel === 'email' ? words.subject : null,
          body: words.body,
          used_fallback: usedFallback,
          generated_at: at,
          updated_at: at,
        });
        return { acceptedAt: at.toISOString() };
      });
    },

    /** Skips a pending proposal: no message is drafted, and matching may propose another tester. */
    async skipProposal(input: StampedDecision & { reason: string | null }): Promise<{ skippedAt: string }> {
      return asSystem(db, async (tx) => {
        const proposal = await lockProposal(tx, input.proposalId);
        if (!proposal) throw refused('Proposal not found');
        // A retry of this very skip after its commit (the workflow's time is its stamp).
        if (proposal.status === 'skipped' && proposal.skipped_at?.toISOString() === input.decidedAt) {
          return { skippedAt: input.decidedAt };
        }
        if (proposal.status !== 'pending') throw notPending(proposal.status, 'reject');
        const at = new Date(input.decidedAt);
        await markProposalSkipped(tx, proposal.id, { decidedBy: input.decidedBy, reason: input.reason, at });
        return { skippedAt: at.toISOString() };
      });
    },
  };
}

export type OutreachActivities = ReturnType<typeof createOutreachActivities>;
