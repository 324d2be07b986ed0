import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { listTesters, type TesterListingRow } from '../../db/repositories/tester-listing.ts';
import { offsetOf, pageMetadata } from '../http/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { listTestersQuery, testerRecord } from './testers.schema.ts';

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

export function adminTesterRoutes(deps: { readonly db: Db }): RouteDefinition[] {
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
  ];
}
