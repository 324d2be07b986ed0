import { z } from 'zod';
import { CAPACITY_REVIEW_STATUSES } from '../../lib/domain.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { int4, storableText } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const listCapacityReviewsQuery = paginationQuery.extend({
  status: z.enum(CAPACITY_REVIEW_STATUSES, 'Must be one of pending, approved, rejected').optional(),
  jobId: referencedId('a study id').optional().describe("one study's reviews"),
});

export const decideCapacityReviewBody = z.object({
  decision: z.enum(['approved', 'rejected'], 'Must be approved or rejected'),
  adjustedCount: int4()
    .min(0, 'Must be 0 or more')
    .max(10_000, 'Must be at most 10000')
    .optional()
    .describe('approvals only; default: availableCount; at most requestedCount'),
  note: storableText(5_000).trim().optional().describe('kept with the decision, for the team'),
});

export type CapacityDecisionInput = z.output<typeof decideCapacityReviewBody>;
