import { z } from 'zod';

/** DESIGN.md, "Limits not shown": at most 1,000 items per batch (more is 413). */
export const MAX_BATCH_ITEMS = 1000;

/** `POST /api/data/events|facial|voice`: the spec's `{sessionId, batch}`; items are checked one by one later. */
export const dataBatchBody = z.object({
  sessionId: z.uuid(),
  batch: z.array(z.unknown()),
});

/** The test-token twins name the session in the path; a `sessionId` in the body must agree with it. */
export const sessionBatchBody = z.object({
  sessionId: z.uuid().optional(),
  batch: z.array(z.unknown()),
});

export const sessionIdParams = z.object({ id: z.uuid() });

export const batchResponse = z.object({
  sessionId: z.string(),
  accepted: z.number().int().describe('valid items, stored now or by an earlier try of the same batch'),
  rejected: z.number().int(),
  rejections: z.array(
    z.object({
      index: z.number().int().describe('position in the batch'),
      reason: z.string().describe('the first violation, named by field'),
    }),
  ),
});
export type BatchResponse = z.output<typeof batchResponse>;
