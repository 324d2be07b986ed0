import type { Update } from 'grammy/types';
import { z } from 'zod';

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
});
