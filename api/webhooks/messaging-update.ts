import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { insertProviderEvent, markEventProcessed } from '../../db/repositories/provider-events.ts';
import { linkMessagingChat } from '../auth/messaging-links.ts';
import type { MessagingUpdate } from './messaging.schema.ts';

/** `/start <code>` (the bot API's deep-link form), optionally addressed as `/start@botname`. */
const START_COMMAND = /^\/start(?:@\w+)?\s+(\S+)\s*$/;

/**
 * Records the bot API's update by its id (a repeated delivery changes nothing) and acts on the one
 * kind the service understands: `/start <code>` in a private chat links that chat to the tester
 * who asked for the code. Everything else is recorded and left alone. Returns whether it linked.
 */
export async function receiveMessagingUpdate(
  db: Db,
  update: MessagingUpdate,
  raw: Record<string, unknown>,
  at: Date,
): Promise<boolean> {
  const id = String(update.update_id);
  const message = update.message;
  const code = message?.chat.type === 'private' ? START_COMMAND.exec(message.text ?? '')?.[1] : undefined;
  return asSystem(db, async (tx) => {
    const fresh = await insertProviderEvent(
      tx,
      {
        provider: 'messaging',
        id,
        type: kindOf(raw),
        payload: code === undefined ? raw : withoutCode(raw),
        ...(message ? { created: message.date } : {}),
      },
      at,
    );
    if (!fresh) return false;
    if (code === undefined) {
      await markEventProcessed(tx, 'messaging', id, at);
      return false;
    }
    const linked = await linkMessagingChat(tx, code, String(message!.chat.id), at);
    await markEventProcessed(tx, 'messaging', id, at, linked ? null : 'unknown, expired or used link code');
    return linked !== undefined;
  });
}

/** The update's kind: the field beside `update_id` (message, edited_message, callback_query, ...). */
function kindOf(raw: Record<string, unknown>): string {
  return Object.keys(raw).find((key) => key !== 'update_id') ?? 'unknown';
}

/** The stored copy keeps the command, not the code: a record is no place for a credential. */
function withoutCode(raw: Record<string, unknown>): Record<string, unknown> {
  const message = raw.message as Record<string, unknown>;
  return { ...raw, message: { ...message, text: '/start [link code]' } };
}
