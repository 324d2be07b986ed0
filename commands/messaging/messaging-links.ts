import type { Tx } from '../../db/doors.ts';
import { voidOneTimeTokens } from '../../db/repositories/one-time-tokens.ts';
import { hasTesterProfile, linkChatToTester } from '../../db/repositories/tester-profiles.ts';
import { conflict } from '../../lib/errors.ts';
import {
  consumeOneTimeToken,
  issueOneTimeToken,
  ONE_TIME_TOKEN_LIFETIME_MS,
} from '../auth/one-time-tokens.ts';

// Linking a tester's chat with the messaging bot: the tester asks for a one-time code, sends
// `/start <code>` to the bot, and the bot API's update (POST /api/webhooks/messaging) names the
// chat. The code is the only thing tying chat to account, so it is random, single use and short-lived.

/** The bot API's deep-link payload alphabet and length (a `/start` parameter). */
export const LINK_CODE_FORMAT = /^[A-Za-z0-9_-]{1,64}$/;

export interface IssuedLinkCode {
  readonly code: string;
  readonly expiresAt: Date;
}

/** A fresh code for the tester; any earlier unused one stops working. Needs a tester profile. */
export async function issueMessagingLinkCode(tx: Tx, userId: string, now: Date): Promise<IssuedLinkCode> {
  if (!(await hasTesterProfile(tx, userId))) {
    throw conflict('A chat is linked to a tester profile: create the profile first');
  }
  await voidOneTimeTokens(tx, userId, ['messaging_link'], now);
  // 32 random bytes in base64url: 43 characters, within the bot API's 64.
  const code = await issueOneTimeToken(tx, userId, 'messaging_link', now);
  return { code, expiresAt: new Date(now.getTime() + ONE_TIME_TOKEN_LIFETIME_MS.messaging_link) };
}

/**
 * Spends the code and makes `chatId` the tester's chat; returns whose chat it now is, or undefined
 * for an unknown, expired or used code. A chat belongs to one tester: linking moves it.
 */
export async function linkMessagingChat(
  tx: Tx,
  code: string,
  chatId: string,
  now: Date,
): Promise<string | undefined> {
  if (!LINK_CODE_FORMAT.test(code)) return undefined;
  const userId = await consumeOneTimeToken(tx, code, 'messaging_link', now);
  if (!userId) return undefined;
  await linkChatToTester(tx, userId, chatId, now);
  return userId;
}
