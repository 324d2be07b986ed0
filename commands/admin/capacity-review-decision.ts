import type { Logger } from 'pino';
import { signalStudyWithStart } from '../../clients/temporal.ts';
import { asUser } from '../../db/doors.ts';
import { lockCapacityReview, recordCapacityDecision } from '../../db/repositories/capacity-reviews.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import type { Principal } from '../principal.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import type { CapacityDecisionInput } from './capacity-review.schema.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * An admin's decision on a pending review, recorded once (a second is 409): approved holds the
 * segment at `adjustedCount` (default: what is available, at most what was requested), rejected
 * at none. The study's workflow hears of it (`capacityDecided`): its matching follows the decision
 * and tells the business of a rejection. A lost signal only waits for the workflow's own recheck.
 */
export async function decideCapacityReview(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: CapacityDecisionInput,
  log: Logger,
) {
  const { decided, study } = await asUser(deps.db, principal.claims, async (tx) => {
    const review = await lockCapacityReview(tx, id);
    if (!review) throw notFound('Capacity review');
    if (review.status !== 'pending') {
      throw conflict(`Capacity review must be pending to decide (it is ${review.status})`);
    }
    if (input.decision === 'rejected' && input.adjustedCount !== undefined) {
      throw invalid('adjustedCount: Only an approval takes an adjusted count');
    }
    if (input.adjustedCount !== undefined && input.adjustedCount > review.requested_count) {
      throw invalid(`adjustedCount: Must be at most the requested count (${review.requested_count})`);
    }
    const row = await recordCapacityDecision(tx, id, {
      status: input.decision,
      adjustedCount:
        input.decision === 'approved'
          ? (input.adjustedCount ?? Math.min(review.available_count, review.requested_count))
          : 0,
      note: input.note || null,
      resolvedBy: principal.claims.sub,
      resolvedAt: deps.now(),
    });
    return { decided: row, study: await studyStatusOf(tx, row.study_id) };
  });
  if (study) {
    await signalStudyWithStart(deps.temporal, serviceTaskQueue(deps), study, {
      studyId: study.id,
      signal: 'capacityDecided',
      reviewId: id,
    }).catch((error: unknown) => log.warn({ err: error, reviewId: id }, 'capacityDecided not signalled'));
  }
  return {
    reviewId: decided.id,
    status: input.decision,
    adjustedCount: decided.adjusted_count ?? 0,
    resolvedAt: decided.resolved_at!.toISOString(),
  };
}
