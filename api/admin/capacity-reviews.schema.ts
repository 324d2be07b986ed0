import { z } from 'zod';
import { CAPACITY_REVIEW_STATUSES } from '../../lib/domain.ts';

export const capacityReviewIdParams = z.object({ id: z.uuid() });

export const capacityReviewRecord = z.object({
  reviewId: z.uuid(),
  jobId: z.uuid(),
  requestedCount: z.number().int().describe("the segment's share of the study's tester count"),
  availableCount: z
    .number()
    .int()
    .describe('eligible testers in the segment, with those already holding a place'),
  segment: z.object({
    country: z.string().describe('ISO 3166-1 alpha-2'),
    ageRange: z
      .object({ min: z.number().int(), max: z.number().int() })
      .nullable()
      .describe("the study's age range; null when it sets none"),
  }),
  status: z.enum(CAPACITY_REVIEW_STATUSES),
  createdAt: z.string().describe('ISO 8601'),
  adjustedCount: z.number().int().optional().describe('after resolution: the testers the segment is to hold'),
  resolvedAt: z.string().optional().describe('ISO 8601, after resolution'),
});

export const decidedCapacityReview = z.object({
  reviewId: z.uuid(),
  status: z.enum(['approved', 'rejected']),
  adjustedCount: z.number().int().describe('0 for a rejection'),
  resolvedAt: z.string().describe('ISO 8601'),
});
