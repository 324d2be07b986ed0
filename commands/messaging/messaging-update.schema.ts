import type { Update } from 'grammy/types';
import { z } from 'zod';
import { int8, storableText } from '../../lib/validation/storable.ts';

// A button press: read only when it names its sender; any other shape is recorded and left alone.
const callbackQuery = z.object({
  id: storableText(255).optional(),
  from: z.object({ id: int8() }).optional(),
  data: storableText(255).optional(),
});
const { $schema: _ignored, ...callbackQueryShape } = z.toJSONSchema(callbackQuery, {
  io: 'input',
  unrepresentable: 'any',
});

/**
 * The part of the bot API's Update (grammy's `Update` type) the service reads: its id, and a text
 * message with its chat. Other kinds of update (edits, callbacks, ...) pass with just their id.
 */
export const messagingUpdate = z.object({
  update_id: int8().nonnegative(),
  message: z
    .object({
      message_id: int8(),
      date: int8(),
      chat: z.object({ id: int8(), type: storableText(100) }),
      text: storableText(10_000).optional(),
    })
    .optional(),
  callback_query: z
    .unknown()
    .transform((value) => callbackQuery.safeParse(value).data)
    .optional()
    .meta({ anyOf: [callbackQueryShape, { description: 'Any other value: recorded and left alone' }] }),
});

export type MessagingUpdate = z.output<typeof messagingUpdate>;

// Compile-time: every Update the bot API sends fits this schema's input, so the two cannot drift.
type Fits<T, U> = T extends U ? true : false;

type Assert<T extends true> = T;

export type UpdateFitsSchema = Assert<Fits<Update, z.input<typeof messagingUpdate>>>;
