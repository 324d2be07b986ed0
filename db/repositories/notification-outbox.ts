import { sql, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { NotificationOutboxTable } from '../schema-engagement.ts';
import type { Channel } from '../../lib/domain.ts';

// The outbox is admin-only under row-level security: these run through the system door.

export type NotificationRow = Selectable<NotificationOutboxTable>;

export interface NewNotification {
  readonly channel: Channel;
  readonly recipient: string;
  readonly userId: string | null;
  readonly kind: string;
  /** Email only. */
  readonly subject?: string;
  readonly body: string;
  /** Kept in the row's payload until the message leaves the outbox (see SECRET_PLACEHOLDER). */
  readonly secret?: string;
  readonly payload?: Record<string, unknown>;
}

/** The columns every queued message fills the same way. */
function outboxRow(message: Omit<NewNotification, 'secret'>, payload: Record<string, unknown>, now: Date) {
  return {
    channel: message.channel,
    recipient: message.recipient,
    user_id: message.userId,
    kind: message.kind,
    subject: message.subject?.slice(0, 500) ?? null,
    body: message.body,
    payload: JSON.stringify(payload),
    available_at: now,
    created_at: now,
  };
}

export async function queueNotification(tx: Tx, message: NewNotification, now: Date): Promise<string> {
  const payload = { ...message.payload, ...(message.secret === undefined ? {} : { secret: message.secret }) };
  const row = await tx
    .insertInto('notification_outbox')
    .values(outboxRow(message, payload, now))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface OnceNotification extends Omit<NewNotification, 'secret'> {
  /** Unique per message and recipient: a repeat (a retried activity) finds the first row. */
  readonly dedupeKey: string;
  /** `sending`: the caller sends it itself (mail), so it never looks queued for delivery. */
  readonly status?: 'pending' | 'sending';
}

/** Queues a message once per `dedupeKey` and returns the row's id, whichever call queued it. */
export async function queueNotificationOnce(tx: Tx, message: OnceNotification, now: Date): Promise<string> {
  const dedupeKey = message.dedupeKey.slice(0, 255);
  await tx
    .insertInto('notification_outbox')
    .values({
      ...outboxRow(message, message.payload ?? {}, now),
      dedupe_key: dedupeKey,
      status: message.status ?? 'pending',
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .execute();
  const row = await tx
    .selectFrom('notification_outbox')
    .select('id')
    .where('dedupe_key', '=', dedupeKey)
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Gives up the undelivered messages of a kind about one session (a newer token replaced the one
 * they carry): they are never sent, and their secret is dropped.
 */
export async function supersedeNotifications(tx: Tx, kind: string, sessionId: string): Promise<void> {
  await tx
    .updateTable('notification_outbox')
    .set({
      status: 'failed',
      last_error: 'superseded by a newer message',
      payload: sql<string>`payload - 'secret'`,
    })
    .where('kind', '=', kind)
    .where(sql<boolean>`payload ->> 'sessionId' = ${sessionId}`)
    .where('status', 'in', ['pending', 'sending'])
    .execute();
}

/** Takes a message for an attempt, or undefined when it was already sent or given up. */
export function claimNotification(tx: Tx, id: string): Promise<NotificationRow | undefined> {
  return tx
    .updateTable('notification_outbox')
    .set((eb) => ({ status: 'sending', attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sending'])
    .returningAll()
    .executeTakeFirst();
}

export async function markNotificationSent(
  tx: Tx,
  id: string,
  deliveredVia: string,
  now: Date,
): Promise<void> {
  await tx
    .updateTable('notification_outbox')
    .set({
      status: 'sent',
      sent_at: now,
      last_error: null,
      payload: sql<string>`(payload - 'secret') || jsonb_build_object('deliveredVia', ${deliveredVia}::text)`,
    })
    .where('id', '=', id)
    .execute();
}

/** An attempt failed but another may follow. */
export async function releaseNotification(tx: Tx, id: string, error: string): Promise<void> {
  await tx
    .updateTable('notification_outbox')
    .set({ status: 'pending', last_error: error.slice(0, 5000) })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** No attempt will follow: the message is given up and its secret dropped. */
export async function markNotificationFailed(tx: Tx, id: string, error: string): Promise<void> {
  await tx
    .updateTable('notification_outbox')
    .set({ status: 'failed', last_error: error.slice(0, 5000), payload: sql<string>`payload - 'secret'` })
    .where('id', '=', id)
    .where('status', 'in', ['pending', 'sending'])
    .execute();
}

/** The message queued under `dedupeKey`, if any (a retried activity finds what it queued). */
export async function notificationIdByDedupeKey(tx: Tx, dedupeKey: string): Promise<string | undefined> {
  const row = await tx
    .selectFrom('notification_outbox')
    .select('id')
    .where('dedupe_key', '=', dedupeKey.slice(0, 255))
    .executeTakeFirst();
  return row?.id;
}

/**
 * Messages queued before `before` that no delivery has tried yet, of the kinds the API queues and
 * then starts the delivery of after its commit (a start that failed leaves them waiting).
 */
export async function untriedMessages(
  tx: Tx,
  kinds: readonly string[],
  before: Date,
  limit: number,
): Promise<string[]> {
  const rows = await tx
    .selectFrom('notification_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('kind', 'in', kinds)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
