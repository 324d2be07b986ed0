import { z, type ZodType } from 'zod';
import { eventItem, facialItem, snapshotRouteItem, voiceItem } from './items.schema.ts';

/** DESIGN.md, "Limits not shown": at most 1,000 items per batch (more is 413). */
export const MAX_BATCH_ITEMS = 1000;

export type BatchKind = 'events' | 'facial' | 'voice' | 'snapshots';

export const ITEM_SCHEMA: Readonly<Record<BatchKind, ZodType>> = {
  events: eventItem,
  facial: facialItem,
  voice: voiceItem,
  snapshots: snapshotRouteItem,
};

/**
 * A batch is read as a list of anything, because each item is checked alone later (a bad item is a
 * rejection, not a 422 of the request); the OpenAPI document still shows the item's table.
 */
function batchOf(kind: BatchKind) {
  const { $schema: _ignored, ...items } = z.toJSONSchema(ITEM_SCHEMA[kind], {
    io: 'input',
    unrepresentable: 'any',
  });
  return z.array(z.unknown()).meta({
    items,
    description: `At most ${MAX_BATCH_ITEMS} items (more is 413); each is validated alone, and invalid ones are listed in rejections.`,
  });
}

/** `POST /api/data/events|facial|voice`: the spec's `{sessionId, batch}`. */
export const dataBatchBody = (kind: BatchKind) => z.object({ sessionId: z.uuid(), batch: batchOf(kind) });

/** The test-token twins name the session in the path; a `sessionId` in the body must agree with it. */
export const sessionBatchBody = (kind: BatchKind) =>
  z.object({ sessionId: z.uuid().optional(), batch: batchOf(kind) });

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

/**
 * The snapshots route also says which signals the session's study records, so that the extension
 * (which may call only the test-token routes) knows whether to ask for the camera and microphone.
 */
export const snapshotsResponse = batchResponse.extend({
  signals: z
    .object({ recordFacial: z.boolean(), recordVoice: z.boolean(), requireThinkAloud: z.boolean() })
    .optional()
    .describe("the study's settings of the same names; an empty batch asks for them alone"),
  nextFrameIndex: z
    .number()
    .int()
    .describe(
      'one past the highest frameIndex stored for the session, this batch included: where a recorder goes on',
    ),
  nextSegmentIndex: z
    .number()
    .int()
    .describe('one past the highest segmentIndex of the voice segments stored for the session'),
});
export type SnapshotsResponse = z.output<typeof snapshotsResponse>;
