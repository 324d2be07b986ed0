import type { Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ProposalsTable } from '../schema-reports.ts';
import type { ProposalStatus } from '../../lib/domain.ts';
import { existingUserId } from './users.ts';

export type ProposalRow = Selectable<ProposalsTable> & { readonly outreach_id: string | null };

export interface ProposalFilter {
  readonly studyId: string;
  readonly status?: ProposalStatus | undefined;
  readonly limit: number;
  readonly offset: number;
}

/**
 * The study's proposals the caller may see (row-level security: the study's organization and
 * admins), best match first, with the outreach message an accepted one drafted, and the total.
 */
export async function listProposals(
  tx: Tx,
  filter: ProposalFilter,
): Promise<{ rows: ProposalRow[]; total: number }> {
  let query = tx.selectFrom('proposals').where('proposals.study_id', '=', filter.studyId);
  if (filter.status) query = query.where('proposals.status', '=', filter.status);
  const [rows, count] = await Promise.all([
    query
      .leftJoin('outreach_messages', 'outreach_messages.proposal_id', 'proposals.id')
      .selectAll('proposals')
      .select('outreach_messages.id as outreach_id')
      .orderBy('proposals.match_score', 'desc')
      .orderBy('proposals.generated_at')
      .orderBy('proposals.id')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A proposal locked for its decision, with the outreach message an accepted one drafted. */
export async function lockProposal(tx: Tx, id: string): Promise<ProposalRow | undefined> {
  const proposal = await tx
    .selectFrom('proposals')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!proposal) return undefined;
  const outreach = await tx
    .selectFrom('outreach_messages')
    .select('id')
    .where('proposal_id', '=', id)
    .executeTakeFirst();
  return { ...proposal, outreach_id: outreach?.id ?? null };
}

/** A proposal as the caller may see it (row-level security decides), or undefined. */
export async function findProposal(tx: Tx, id: string): Promise<ProposalRow | undefined> {
  return tx
    .selectFrom('proposals')
    .leftJoin('outreach_messages', 'outreach_messages.proposal_id', 'proposals.id')
    .selectAll('proposals')
    .select('outreach_messages.id as outreach_id')
    .where('proposals.id', '=', id)
    .executeTakeFirst();
}

export async function markProposalAccepted(tx: Tx, id: string, decidedBy: string, at: Date): Promise<void> {
  await tx
    .updateTable('proposals')
    .set({ status: 'accepted', accepted_at: at, decided_by: existingUserId(decidedBy) })
    .where('id', '=', id)
    .execute();
}

export async function markProposalSkipped(
  tx: Tx,
  id: string,
  change: { readonly decidedBy: string; readonly reason: string | null; readonly at: Date },
): Promise<void> {
  await tx
    .updateTable('proposals')
    .set({
      status: 'skipped',
      skipped_at: change.at,
      decided_by: existingUserId(change.decidedBy),
      skip_reason: change.reason,
    })
    .where('id', '=', id)
    .execute();
}

/** What an outreach draft is written from: the proposal's study, its organization and its tester. */
export async function proposalContext(tx: Tx, proposalId: string) {
  return tx
    .selectFrom('proposals')
    .innerJoin('studies', 'studies.id', 'proposals.study_id')
    .innerJoin('organizations', 'organizations.id', 'studies.organization_id')
    .innerJoin('users', 'users.id', 'proposals.tester_id')
    .leftJoin('tester_profiles', 'tester_profiles.user_id', 'proposals.tester_id')
    .select([
      'proposals.status as proposal_status',
      'studies.title',
      'studies.max_duration_minutes',
      'studies.target_devices',
      'studies.compensation_amount',
      'studies.compensation_currency',
      'studies.require_think_aloud',
      'studies.record_facial',
      'studies.record_voice',
      'organizations.name as organization_name',
      'users.email as tester_email',
      'users.display_name as tester_name',
      'tester_profiles.messaging_chat_id',
    ])
    .select((eb) =>
      eb
        .selectFrom('study_tasks')
        .select((inner) => inner.fn.countAll<string>().as('n'))
        .whereRef('study_tasks.study_id', '=', 'proposals.study_id')
        .as('task_count'),
    )
    .where('proposals.id', '=', proposalId)
    .executeTakeFirst();
}
