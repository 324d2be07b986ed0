import { TEST_TOKEN_KIND, testTokenMessageBody } from '../../lib/outbox-messages.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import { queueNotification, supersedeNotifications } from '../../db/repositories/notification-outbox.ts';
import { testerContact, testerDestination } from '../../db/repositories/contacts.ts';
import type { Channel } from '../../lib/domain.ts';
import {
  lockSessionForTestToken,
  sessionHoldingTestToken,
  setTestToken,
} from '../../db/repositories/test-tokens.ts';
import { startNotificationDelivery } from '../../clients/temporal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { mintTestToken } from '../../lib/test-token.ts';
import { sessionStartAfterAcceptPath } from '../../lib/session-start.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

export interface IssuedTestToken {
  readonly sessionId: string;
  readonly testToken: string;
  readonly expiresAt: Date;
  /** True when the token was queued to the tester's chat. */
  readonly messagingQueued: boolean;
  /** True when it was queued by email instead (the tester has no chat linked). */
  readonly emailQueued: boolean;
}

/**
 * Issues the test token of a session (48 hex characters, 192 bits from the CSPRNG), replacing
 * any earlier one; only its SHA-256 is stored. Call inside the transaction that creates or
 * re-issues the session.
 */
export async function issueTestToken(
  tx: Tx,
  sessionId: string,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash, expiresAt } = mintTestToken(now);
  const stored = await setTestToken(tx, sessionId, hash, expiresAt);
  if (!stored) throw new Error(`session ${sessionId} not found`);
  return { token, expiresAt };
}

/** Only a session that can still record or change status has a use for a token. */
const TOKEN_STATUSES: readonly string[] = ['active', 'paused'];

interface TokenMessage {
  readonly sessionId: string;
  readonly testerId: string;
  readonly token: string;
  readonly expiresAt: Date;
}

/** The subject of a test token sent by email (a tester without a linked chat). */
const TEST_TOKEN_SUBJECT = 'Your usability test session is ready';

/**
 * Queues the token's message to the tester: to their chat (tester_profiles.messaging_chat_id), or
 * by email when none is linked, linking the session's start page at the service's address, in the
 * caller's system transaction, giving up any undelivered older token of the session.
 */
async function queueTestTokenMessage(
  deps: CommandContext,
  tx: Tx,
  message: TokenMessage,
  now: Date,
): Promise<{ id: string; channel: Channel }> {
  await supersedeNotifications(tx, TEST_TOKEN_KIND, message.sessionId);
  const contact = await testerContact(tx, message.testerId);
  const destination = testerDestination(contact.messaging_chat_id, contact.email, TEST_TOKEN_SUBJECT);
  const id = await queueNotification(
    tx,
    {
      ...destination,
      userId: message.testerId,
      kind: TEST_TOKEN_KIND,
      body: testTokenMessageBody(
        message.expiresAt,
        deps.config.http.baseUrl + sessionStartAfterAcceptPath(message.sessionId),
      ),
      secret: message.token,
      payload: { sessionId: message.sessionId, expiresAt: message.expiresAt.toISOString() },
    },
    now,
  );
  return { id, channel: destination.channel };
}

/** Hands the queued message to its workflow; the request does not wait for the channel. */
function startDelivery(deps: CommandContext, notificationId: string): Promise<void> {
  return startNotificationDelivery(deps.temporal, serviceTaskQueue(deps), notificationId);
}

/**
 * Sends the token a new session was created with to its tester. The token must still be the
 * session's current one (its hash is compared), so a token replaced meanwhile is never sent.
 */
export async function deliverTestToken(
  deps: CommandContext,
  sessionId: string,
  token: string,
): Promise<boolean> {
  const now = deps.now();
  const queued = await asSystem(deps.db, async (tx) => {
    const session = await sessionHoldingTestToken(tx, sessionId, sha256Hex(token));
    if (!session?.test_token_expires_at) return null;
    const expiresAt = session.test_token_expires_at;
    return queueTestTokenMessage(deps, tx, { sessionId, testerId: session.tester_id, token, expiresAt }, now);
  });
  if (queued) await startDelivery(deps, queued.id);
  return queued !== null;
}

/**
 * `POST /api/sessions/:id/test-token`, once the caller is known to see the session: a fresh token
 * replaces the previous one (which stops working at once) and is queued for the tester.
 */
export async function reissueTestToken(deps: CommandContext, sessionId: string): Promise<IssuedTestToken> {
  const now = deps.now();
  const issued = await asSystem(deps.db, async (tx) => {
    const session = await lockSessionForTestToken(tx, sessionId);
    if (!session) throw notFound('Session');
    if (!TOKEN_STATUSES.includes(session.status)) {
      throw conflict(`Session must be active or paused to issue a test token (it is ${session.status})`);
    }
    if (session.tester_status === 'suspended') throw conflict("The session's tester is suspended");
    const { token, expiresAt } = await issueTestToken(tx, sessionId, now);
    const message = { sessionId, testerId: session.tester_id, token, expiresAt };
    return { token, expiresAt, queued: await queueTestTokenMessage(deps, tx, message, now) };
  });
  await startDelivery(deps, issued.queued.id);
  return {
    sessionId,
    testToken: issued.token,
    expiresAt: issued.expiresAt,
    messagingQueued: issued.queued.channel === 'messaging',
    emailQueued: issued.queued.channel === 'email',
  };
}

/**
 * The session start page's button (`POST /sessions/:id/start`): the session's own tester takes a
 * fresh token, which the page hands to the extension. The previous token stops working and an
 * older token's message not yet delivered to the chat is given up, since the page now holds the
 * current one. Not found for anyone but the session's tester (the caller checked who sees it).
 */
export async function takeTestTokenForExtension(
  deps: CommandContext,
  testerId: string,
  sessionId: string,
): Promise<{ token: string; expiresAt: Date }> {
  const now = deps.now();
  return asSystem(deps.db, async (tx) => {
    const session = await lockSessionForTestToken(tx, sessionId);
    if (!session || session.tester_id !== testerId) throw notFound('Session');
    if (!TOKEN_STATUSES.includes(session.status)) {
      throw conflict(`Session must be active or paused to start it (it is ${session.status})`);
    }
    if (session.tester_status === 'suspended') throw conflict('Your account is suspended');
    await supersedeNotifications(tx, TEST_TOKEN_KIND, sessionId);
    return issueTestToken(tx, sessionId, now);
  });
}
