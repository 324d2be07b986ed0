import { asSystem } from '../../db/doors.ts';
import {
  findProviderEvent,
  insertProviderEvent,
  markEventProcessed,
} from '../../db/repositories/provider-events.ts';
import { linkMessagingChat } from './messaging-links.ts';
import { findOffer } from '../../db/repositories/offers.ts';
import { messagingChatOf } from '../../db/repositories/tester-profiles.ts';
import { type OfferAnswer, type OfferOutcome, parseOfferCallback } from '../../lib/offers.ts';
import type { MessagingUpdate } from './messaging-update.schema.ts';
import type { CommandContext } from '../context.ts';
import { answerOffer } from '../offers/answer-offer.ts';
import { replyToTester } from '../offers/offer-replies.ts';

/** `/start <code>` (the bot API's deep-link form), optionally addressed as `/start@botname`. */
const START_COMMAND = /^\/start(?:@\w+)?\s+(\S+)\s*$/;

/** An offer's button pressed in the chat of the offer's own tester. */
export interface ChatOfferAnswer {
  readonly outreachId: string;
  readonly answer: OfferAnswer;
  readonly chatId: string;
  readonly testerId: string;
}

export interface ReceivedUpdate {
  readonly linked: boolean;
  /** An offer's button press (from any chat), for the caller to answer once handled. */
  readonly callbackQueryId?: string;
  /** A fresh update that answers an offer: the caller hands it to the offer. */
  readonly offerAnswer?: ChatOfferAnswer;
}

/**
 * Records the bot API's update by its id (a repeated delivery changes nothing) and reads the two
 * kinds the service understands: `/start <code>` in a private chat links that chat to the tester
 * who asked for the code; an offer's accept or decline button (a callback query) from the chat
 * linked to the offer's tester is returned for the caller to answer. Anything else, or a button
 * pressed from another chat, is recorded and left alone.
 */
export async function receiveMessagingUpdate(
  { db, now }: Pick<CommandContext, 'db' | 'now'>,
  update: MessagingUpdate,
  raw: Record<string, unknown>,
): Promise<ReceivedUpdate> {
  const at = now();
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
    const callback = update.callback_query;
    const pressed = callback?.data ? parseOfferCallback(callback.data) : undefined;
    if (callback?.from && pressed) {
      const callbackQueryId = callback.id;
      // An answer is marked processed by the caller once the offer took it: a delivery repeated
      // after a failure (the bot API retries on 500) answers again, and the offer takes it once.
      if (!fresh && (await findProviderEvent(tx, 'messaging', id))?.processed_at) {
        return { linked: false, callbackQueryId };
      }
      const chatId = String(callback.from.id);
      const offer = await findOffer(tx, pressed.outreachId);
      const own = offer !== undefined && (await messagingChatOf(tx, offer.tester_id)) === chatId;
      if (!own) {
        await markEventProcessed(tx, 'messaging', id, at, 'offer button from a chat not its tester');
        return { linked: false, callbackQueryId };
      }
      return {
        linked: false,
        callbackQueryId,
        offerAnswer: { ...pressed, chatId, testerId: offer.tester_id },
      };
    }
    if (!fresh) return { linked: false };
    if (code === undefined) {
      await markEventProcessed(tx, 'messaging', id, at);
      return { linked: false };
    }
    const linked = await linkMessagingChat(tx, code, String(message!.chat.id), at);
    await markEventProcessed(tx, 'messaging', id, at, linked ? null : 'unknown, expired or used link code');
    return { linked: linked !== undefined };
  });
}

/**
 * Hands a pressed offer button to the offer and tells the tester in the chat what it did (an
 * acceptance is told by its confirmation, which carries the test token).
 */
export async function answerInChat(
  deps: CommandContext,
  pressed: ChatOfferAnswer,
  updateId: number,
): Promise<OfferOutcome | undefined> {
  const reply = await answerOffer(deps, pressed.outreachId, pressed.answer);
  if (reply && reply.outcome !== 'accepted') {
    await replyToTester(deps, { ...pressed, outcome: reply.outcome, dedupeKey: `offer-answer:${updateId}` });
  }
  await asSystem(deps.db, (tx) => markEventProcessed(tx, 'messaging', String(updateId), deps.now()));
  return reply?.outcome;
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
