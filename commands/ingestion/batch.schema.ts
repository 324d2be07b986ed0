import { z, type ZodType } from 'zod';
import { eventItem, facialItem, snapshotRouteItem, voiceItem } from './items.schema.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

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
  // Any value is taken (and rejected alone): the item's table is the first of two alternatives.
  return z.array(z.unknown()).meta({
    items: { anyOf: [items, { description: 'Any other value: rejected alone, and listed in rejections' }] },
    description: `At most ${MAX_BATCH_ITEMS} items (more is 413); each is validated alone, and invalid ones are listed in rejections.`,
  });
}

/** `POST /api/data/events|facial|voice`: the spec's `{sessionId, batch}`. */
export const dataBatchBody = (kind: BatchKind) =>
  z.object({ sessionId: referencedId('a session id'), batch: batchOf(kind) });

/** The test-token twins name the session in the path; a `sessionId` in the body must agree with it. */
export const sessionBatchBody = (kind: BatchKind) =>
  z.object({ sessionId: referencedId('a session id').optional(), batch: batchOf(kind) });
