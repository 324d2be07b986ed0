import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { insertOutreachMessage } from '../../db/repositories/outreach-messages.ts';
import {
  lockProposal,
  markProposalAccepted,
  markProposalSkipped,
  proposalContext,
  type ProposalRow,
} from '../../db/repositories/proposals.ts';
import { PROPOSAL_NOT_PENDING } from '../../lib/failures.ts';
import { formatMinorUnits, toMinorUnits } from '../../lib/money.ts';
import { AllProvidersUnavailableError, type Agents } from '../ai/agents.ts';
import { localOutreachDraft, type OutreachDraft, type OutreachInput } from '../ai/agents/outreach.ts';

export interface ProposalDecision {
  readonly proposalId: string;
  /** The business user or admin who decided. */
  readonly decidedBy: string;
}

const notPending = (proposal: ProposalRow, verb: string) =>
  ApplicationFailure.nonRetryable(
    `Proposal must be pending to ${verb} (it is ${proposal.status})`,
    PROPOSAL_NOT_PENDING,
  );

/** Proposal decisions and the outreach drafts they lead to; the study workflow runs them. */
export function createOutreachActivities({
  db,
  agents,
  now = () => new Date(),
}: {
  db: Db;
  agents: Agents;
  now?: () => Date;
}) {
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
     */
    async acceptProposal(input: ProposalDecision & { outreachId: string }): Promise<{ acceptedAt: string }> {
      const context = await asSystem(db, (tx) => proposalContext(tx, input.proposalId));
      if (!context) throw ApplicationFailure.nonRetryable('Proposal not found', PROPOSAL_NOT_PENDING);
      const channel = context.messaging_chat_id ? 'messaging' : 'email';
      const currency = context.compensation_currency;
      const { draft: words, usedFallback } = await draft({
        channel,
        testerFirstName: context.tester_name?.trim().split(/\s+/)[0] || null,
        organizationName: context.organization_name,
        study: {
          title: context.title,
          taskCount: Number(context.task_count ?? 0),
          maxDurationMinutes: context.max_duration_minutes,
          devices: context.target_devices,
          compensation: formatMinorUnits(
            toMinorUnits(context.compensation_amount, currency, 'payout'),
            currency,
          ),
          thinkAloud: context.require_think_aloud,
          recordsFacial: context.record_facial,
          recordsVoice: context.record_voice,
        },
      });
      return asSystem(db, async (tx) => {
        const proposal = await lockProposal(tx, input.proposalId);
        if (!proposal) throw ApplicationFailure.nonRetryable('Proposal not found', PROPOSAL_NOT_PENDING);
        // A retry of this very approval after its commit: answered as it stands.
        if (proposal.status === 'accepted' && proposal.outreach_id === input.outreachId) {
          return { acceptedAt: proposal.accepted_at!.toISOString() };
        }
        if (proposal.status !== 'pending') throw notPending(proposal, 'approve');
        const at = now();
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
    async skipProposal(input: ProposalDecision & { reason: string | null }): Promise<{ skippedAt: string }> {
      return asSystem(db, async (tx) => {
        const proposal = await lockProposal(tx, input.proposalId);
        if (!proposal) throw ApplicationFailure.nonRetryable('Proposal not found', PROPOSAL_NOT_PENDING);
        if (proposal.status === 'skipped' && proposal.decided_by === input.decidedBy) {
          return { skippedAt: proposal.skipped_at!.toISOString() };
        }
        if (proposal.status !== 'pending') throw notPending(proposal, 'reject');
        const at = now();
        await markProposalSkipped(tx, proposal.id, { decidedBy: input.decidedBy, reason: input.reason, at });
        return { skippedAt: at.toISOString() };
      });
    },
  };
}

export type OutreachActivities = ReturnType<typeof createOutreachActivities>;
