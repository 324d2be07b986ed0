import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import { listCapacityReviews, type CapacityReviewRow } from '../../db/repositories/capacity-reviews.ts';
import { offsetOf, pageMetadata } from '../../lib/validation/pagination.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { decideCapacityReview } from '../../commands/admin/capacity-review-decision.ts';
import {
  capacityReviewIdParams,
  capacityReviewRecord,
  decidedCapacityReview,
} from './capacity-reviews.schema.ts';
import {
  decideCapacityReviewBody,
  listCapacityReviewsQuery,
} from '../../commands/admin/capacity-review.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const toCapacityReview = (row: CapacityReviewRow) => ({
  reviewId: row.id,
  jobId: row.study_id,
  requestedCount: row.requested_count,
  availableCount: row.available_count,
  segment: { country: row.segment.country, ageRange: row.segment.ageRange ?? null },
  status: row.status,
  createdAt: row.created_at.toISOString(),
  ...(row.resolved_at
    ? { adjustedCount: row.adjusted_count ?? 0, resolvedAt: row.resolved_at.toISOString() }
    : {}),
});

export function capacityReviewRoutes(deps: CommandContext): RouteDefinition[] {
  const admin = { tag: 'Admin', auth: 'user', roles: ['admin'] } as const;
  return [
    defineRoute({
      ...admin,
      method: 'GET',
      path: '/api/admin/capacity-reviews',
      summary: 'Capacity reviews of short segments, oldest first (admins only)',
      query: listCapacityReviewsQuery,
      response: capacityReviewRecord.array(),
      paginated: true,
      handler: async ({ query, principal }) =>
        asUser(deps.db, principal.claims, async (tx) => {
          const { rows, total } = await listCapacityReviews(tx, {
            status: query.status,
            studyId: query.jobId,
            limit: query.limit,
            offset: offsetOf(query),
          });
          return { data: rows.map(toCapacityReview), metadata: pageMetadata(query, total) };
        }),
    }),
    defineRoute({
      ...admin,
      method: 'POST',
      path: '/api/admin/capacity-reviews/:id',
      summary:
        'Decide a pending capacity review: approved holds the segment at adjustedCount, rejected stops its matching and tells the business',
      params: capacityReviewIdParams,
      resource: 'Capacity review',
      errors: [409],
      body: decideCapacityReviewBody,
      response: decidedCapacityReview,
      handler: async ({ params, body, principal, ctx }) => ({
        data: await decideCapacityReview(deps, principal, params.id, body, ctx.state.log as Logger),
      }),
    }),
  ];
}
