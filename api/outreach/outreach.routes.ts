import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import { listPendingOutreach, type OutreachRow } from '../../db/repositories/outreach-messages.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { approveOutreach, editOutreach, rejectOutreach } from '../../commands/outreach/outreach-commands.ts';
import {
  approvedOutreach,
  editedOutreach,
  outreachIdParams,
  outreachRecord,
  rejectedOutreach,
} from './outreach.schema.ts';
import {
  editOutreachBody,
  outreachQueueQuery,
  rejectOutreachBody,
} from '../../commands/outreach/outreach.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const toOutreach = (row: OutreachRow) => ({
  outreachId: row.id,
  jobId: row.study_id,
  testerId: row.tester_id,
  testerEmail: row.recipient_email,
  channel: row.channel,
  ...(row.subject !== null ? { subject: row.subject } : {}),
  body: row.body,
  status: 'pending' as const,
  generatedAt: row.generated_at.toISOString(),
});

export function outreachRoutes(deps: CommandContext): RouteDefinition[] {
  const review = { tag: 'Outreach', auth: 'user', roles: ['business', 'admin'] } as const;
  const byId = { ...review, params: outreachIdParams, resource: 'Outreach message', errors: [409] } as const;
  return [
    defineRoute({
      ...review,
      method: 'GET',
      path: '/api/outreach/queue',
      summary: 'Outreach messages waiting for review, oldest first (the study organization and admins)',
      query: outreachQueueQuery,
      response: outreachRecord.array(),
      paginated: true,
      handler: async ({ query, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          const { rows, total } = await listPendingOutreach(tx, {
            studyId: query.jobId,
            limit: query.limit,
            offset: offsetOf(query),
          });
          return { data: rows.map(toOutreach), metadata: pageMetadata(query, total) };
        }),
    }),
    defineRoute({
      ...byId,
      method: 'POST',
      path: '/api/outreach/:id/edit',
      summary: 'Reword a pending outreach message (subject for email only); it stays pending',
      body: editOutreachBody,
      response: editedOutreach,
      handler: async ({ params, body, principal }) => ({
        data: await editOutreach(deps, principal, params.id, body),
      }),
    }),
    defineRoute({
      ...byId,
      method: 'POST',
      path: '/api/outreach/:id/approve',
      summary:
        "Approve a pending outreach message: it is sent at scheduledSendAt as the study's offer (held while the study is paused)",
      response: approvedOutreach,
      handler: async ({ params, principal }) => ({ data: await approveOutreach(deps, principal, params.id) }),
    }),
    defineRoute({
      ...byId,
      method: 'POST',
      path: '/api/outreach/:id/reject',
      summary: 'Reject a pending outreach message: it is never sent; the reason is kept for audit',
      body: rejectOutreachBody,
      response: rejectedOutreach,
      handler: async ({ params, body, principal, ctx }) => ({
        data: await rejectOutreach(deps, principal, params.id, body.reason, ctx.state.log as Logger),
      }),
    }),
  ];
}
