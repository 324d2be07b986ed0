import { sql, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { CapacityReviewsTable, CapacitySegment } from '../schema-reports.ts';
import type { CapacityReviewStatus } from '../../lib/domain.ts';
import { existingUserId } from './users.ts';

export type CapacityReviewRow = Selectable<CapacityReviewsTable>;

export interface NewCapacityReview {
  readonly segment: CapacitySegment;
  readonly requestedCount: number;
  readonly availableCount: number;
}

/** The study's reviews, one per segment at most (0030's unique index on the segment's country). */
export function capacityReviewsOf(tx: Tx, studyId: string): Promise<CapacityReviewRow[]> {
  return tx.selectFrom('capacity_reviews').selectAll().where('study_id', '=', studyId).execute();
}

/** Stores pending reviews; a segment already reviewed keeps its review. Answers how many were new. */
export async function createCapacityReviews(
  tx: Tx,
  studyId: string,
  reviews: readonly NewCapacityReview[],
  now: Date,
): Promise<number> {
  let created = 0;
  for (const review of reviews) {
    const { numAffectedRows } = await sql`
      insert into capacity_reviews (study_id, requested_count, available_count, segment, created_at)
      values (${studyId}, ${review.requestedCount}, ${review.availableCount},
              ${JSON.stringify(review.segment)}::jsonb, ${now})
      on conflict (study_id, (segment ->> 'country')) do nothing
    `.execute(tx);
    created += Number(numAffectedRows ?? 0);
  }
  return created;
}

export async function listCapacityReviews(
  tx: Tx,
  filter: {
    readonly status?: CapacityReviewStatus | undefined;
    readonly studyId?: string | undefined;
    readonly limit: number;
    readonly offset: number;
  },
): Promise<{ rows: CapacityReviewRow[]; total: number }> {
  let query = tx.selectFrom('capacity_reviews');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.studyId) query = query.where('study_id', '=', filter.studyId);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('created_at').orderBy('id').limit(filter.limit).offset(filter.offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** A review as the caller may see it, locked for its decision. */
export function lockCapacityReview(tx: Tx, id: string): Promise<CapacityReviewRow | undefined> {
  return tx.selectFrom('capacity_reviews').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function recordCapacityDecision(
  tx: Tx,
  id: string,
  decision: {
    readonly status: 'approved' | 'rejected';
    readonly adjustedCount: number;
    readonly note: string | null;
    readonly resolvedBy: string;
    readonly resolvedAt: Date;
  },
): Promise<CapacityReviewRow> {
  return tx
    .updateTable('capacity_reviews')
    .set({
      status: decision.status,
      adjusted_count: decision.adjustedCount,
      note: decision.note,
      resolved_by: existingUserId(decision.resolvedBy),
      resolved_at: decision.resolvedAt,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Why a review was closed without an admin's decision (its `note`, for the team). */
export const CLOSED_UNDECIDED_NOTE = 'Closed without a decision: the study stopped recruiting.';

/**
 * The study's reviews still pending when it stops recruiting, closed: rejected with nobody as the
 * decider, `adjusted_count` 0, and marked told, since the business has nothing to hear about a
 * segment of a study that recruits no more. Answers how many were closed.
 */
export async function closePendingReviews(tx: Tx, studyId: string, at: Date): Promise<number> {
  const closed = await tx
    .updateTable('capacity_reviews')
    .set({
      status: 'rejected',
      adjusted_count: 0,
      note: CLOSED_UNDECIDED_NOTE,
      resolved_by: null,
      resolved_at: at,
      business_notified_at: at,
    })
    .where('study_id', '=', studyId)
    .where('status', '=', 'pending')
    .returning('id')
    .execute();
  return closed.length;
}

/** The study's rejected reviews its business has not been told of yet, now marked told. */
export function takeUntoldRejections(tx: Tx, studyId: string, now: Date): Promise<CapacityReviewRow[]> {
  return tx
    .updateTable('capacity_reviews')
    .set({ business_notified_at: now })
    .where('study_id', '=', studyId)
    .where('status', '=', 'rejected')
    .where('business_notified_at', 'is', null)
    .returningAll()
    .execute();
}
