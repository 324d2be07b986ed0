import { asUser } from '../../db/doors.ts';
import { listProposals, type ProposalRow } from '../../db/repositories/proposals.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { notFound } from '../../lib/errors.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { approveProposal, rejectProposal } from '../../commands/outreach/proposal-commands.ts';
import { proposalApproval, proposalIdParams, proposalRecord, proposalRejection } from './proposals.schema.ts';
import { listProposalsQuery, rejectProposalBody } from '../../commands/outreach/proposal.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const toProposal = (row: ProposalRow) => ({
  proposalId: row.id,
  jobId: row.study_id,
  testerId: row.tester_id,
  matchScore: Number(row.match_score),
  matchReasons: row.match_reasons,
  status: row.status,
  generatedAt: row.generated_at.toISOString(),
  ...(row.outreach_id ? { outreachId: row.outreach_id } : {}),
  ...(row.accepted_at ? { acceptedAt: row.accepted_at.toISOString() } : {}),
  ...(row.skipped_at ? { skippedAt: row.skipped_at.toISOString() } : {}),
});

export function proposalRoutes(deps: CommandContext): RouteDefinition[] {
  const decision = {
    tag: 'Outreach',
    auth: 'user',
    roles: ['business', 'admin'],
    params: proposalIdParams,
    resource: 'Proposal',
    errors: [409],
  } as const;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/outreach/proposals',
      tag: 'Outreach',
      summary:
        "The matching algorithm's proposals for a study, best match first (its organization and admins)",
      auth: 'user',
      roles: ['business', 'admin'],
      query: listProposalsQuery,
      response: proposalRecord.array(),
      paginated: true,
      errors: [404],
      handler: async ({ query, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          // A study the caller cannot see is not found, whether it exists or not.
          if (!(await findStudy(tx, query.jobId))) throw notFound('Study');
          const { rows, total } = await listProposals(tx, {
            studyId: query.jobId,
            status: query.status,
            limit: query.limit,
            offset: offsetOf(query),
          });
          return { data: rows.map(toProposal), metadata: pageMetadata(query, total) };
        }),
    }),
    defineRoute({
      ...decision,
      method: 'POST',
      path: '/api/outreach/proposals/:id/approve',
      summary: 'Approve a pending proposal: its outreach message is drafted, pending review',
      response: proposalApproval,
      handler: async ({ params, principal }) => ({ data: await approveProposal(deps, principal, params.id) }),
    }),
    defineRoute({
      ...decision,
      method: 'POST',
      path: '/api/outreach/proposals/:id/reject',
      summary: 'Skip a pending proposal: no message; matching proposes another tester',
      body: rejectProposalBody,
      response: proposalRejection,
      handler: async ({ params, body, principal }) => ({
        data: await rejectProposal(deps, principal, params.id, body.reason),
      }),
    }),
  ];
}
