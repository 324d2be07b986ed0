import { asUser } from '../../db/doors.ts';
import { findProposal, type ProposalRow } from '../../db/repositories/proposals.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import { PROPOSAL_DECISION_REFUSED } from '../../lib/failures.ts';
import { approveProposalUpdate, rejectProposalUpdate } from '../../workflows/messages/recruitment.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { updateOrConflict } from '../update-or-conflict.ts';
import { ensureStudyWorkflow } from '../studies/create-study.ts';
import type { CommandContext } from '../context.ts';

type Verb = 'approve' | 'reject';

/**
 * The proposal as the caller may see it (its study's organization, admins), judged before the
 * workflow is asked: 404 when hidden, 409 when no longer pending or its study no longer recruits.
 * The study's workflow is started from its recorded status when it has none.
 */
async function decidable(
  deps: CommandContext,
  principal: Principal,
  id: string,
  verb: Verb,
): Promise<ProposalRow> {
  const { proposal, study } = await asUser(deps.db, principal.claims, async (tx) => {
    const found = await findProposal(tx, id);
    return { proposal: found, study: found ? await studyStatusOf(tx, found.study_id) : undefined };
  });
  if (!proposal || !study) throw notFound('Proposal');
  if (proposal.status !== 'pending') {
    throw conflict(`Proposal must be pending to ${verb} (it is ${proposal.status})`);
  }
  if (study.status !== 'active' && study.status !== 'paused') {
    throw conflict(`Study must be active or paused to decide its proposals (it is ${study.status})`);
  }
  await ensureStudyWorkflow(deps, study);
  return proposal;
}

export async function approveProposal(deps: CommandContext, principal: Principal, id: string) {
  const proposal = await decidable(deps, principal, id, 'approve');
  const approval = await updateOrConflict(PROPOSAL_DECISION_REFUSED, () =>
    deps.temporal.workflow
      .getHandle(studyWorkflowId(proposal.study_id))
      .executeUpdate(approveProposalUpdate, { args: [{ proposalId: id, decidedBy: principal.claims.sub }] }),
  );
  return { proposalId: id, status: 'accepted' as const, ...approval };
}

export async function rejectProposal(
  deps: CommandContext,
  principal: Principal,
  id: string,
  reason: string | undefined,
) {
  const proposal = await decidable(deps, principal, id, 'reject');
  const { skippedAt } = await updateOrConflict(PROPOSAL_DECISION_REFUSED, () =>
    deps.temporal.workflow.getHandle(studyWorkflowId(proposal.study_id)).executeUpdate(rejectProposalUpdate, {
      args: [{ proposalId: id, decidedBy: principal.claims.sub, reason: reason ?? null }],
    }),
  );
  return { proposalId: id, status: 'skipped' as const, skippedAt };
}
