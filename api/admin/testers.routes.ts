import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import { listTesters, type TesterListingRow } from '../../db/repositories/tester-listing.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { changeTesterStatus } from '../../commands/admin/tester-status.ts';
import { testerIdParams, testerRecord, testerStatusChange } from './testers.schema.ts';
import { listTestersQuery, testerStatusBody } from '../../commands/admin/tester.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const toTesterRecord = (row: TesterListingRow) => ({
  testerId: row.id,
  email: row.email,
  displayName: row.display_name,
  country: row.country,
  status: row.status,
  completedSessions: row.completed_sessions,
  avgRating: row.avg_rating === null ? null : Number(row.avg_rating),
  joinedAt: row.joined_at.toISOString(),
});

export function adminTesterRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/admin/testers',
      tag: 'Admin',
      summary: 'List testers with their confirmed sessions and average rating (admins only)',
      auth: 'user',
      roles: ['admin'],
      query: listTestersQuery,
      response: testerRecord.array(),
      paginated: true,
      handler: async ({ query, principal }) =>
        // The admin's own claims: row-level security applies here as on every user route.
        asUser(deps.db, principal.claims, async (tx) => {
          const { rows, total } = await listTesters(tx, {
            status: query.status,
            country: query.country,
            minSessions: query.minSessions,
            limit: query.limit,
            offset: offsetOf(query),
          });
          return { data: rows.map(toTesterRecord), metadata: pageMetadata(query, total) };
        }),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/admin/testers/:id',
      tag: 'Admin',
      summary:
        'Approve (pending to active), suspend or reinstate a tester, with a reason kept for audit (admins only)',
      auth: 'user',
      roles: ['admin'],
      params: testerIdParams,
      resource: 'Tester',
      errors: [409],
      body: testerStatusBody,
      response: testerStatusChange,
      handler: async ({ params, body, principal, ctx }) => ({
        data: await changeTesterStatus(deps, principal, params.id, body, ctx.state.log as Logger),
      }),
    }),
  ];
}
