import type { Update } from 'grammy/types';
import { z } from 'zod';
import { OFFER_OUTCOMES } from '../../lib/offers.ts';

/**
 * The part of the bot API's Update (grammy's `Update` type) the service reads: its id, and a text
 * message with its chat. Other kinds of update (edits, callbacks, ...) pass with just their id.
 */
export const messagingUpdate = z.object({
  update_id: z.number().int().nonnegative(),
  message: z
    .object({
      message_id: z.number().int(),
      date: z.number().int(),
      chat: z.object({ id: z.number().int(), type: z.string() }),
      text: z.string().optional(),
    })
    .optional(),
  // A button press: read only when it names its sender; any other shape is recorded and left alone.
  callback_query: z
    .object({
      id: z.string().optional(),
      from: z.object({ id: z.number().int() }).optional(),
      data: z.string().optional(),
    })
    .optional()
    .catch(undefined),
});

export type MessagingUpdate = z.output<typeof messagingUpdate>;

// Compile-time: every Update the bot API sends fits this schema's input, so the two cannot drift.
type Fits<T, U> = T extends U ? true : false;
type Assert<T extends true> = T;
export type UpdateFitsSchema = Assert<Fits<Update, z.input<typeof messagingUpdate>>>;

export const messagingReceivedResponse = z.object({
  received: z.literal(true),
  linked: z
    .boolean()
    .describe("true when the update was a /start with a valid link code and linked the sender's chat"),
  offer: z
    .enum(OFFER_OUTCOMES)
    .optional()
    .describe("when the update was an offer's accept or decline button pressed by its tester: what it did"),
});
