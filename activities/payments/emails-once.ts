import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import type { EmailSender } from '../notify/email.ts';

export interface OnceEmail {
  /** Unique per message and recipient (`invoice:<org>:<period>:<user>`). */
  readonly dedupeKey: string;
  readonly kind: string;
  readonly userId: string | null;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * Sends a mail unless the outbox records it as sent. The outbox row (kept as `sending` until the
 * mail is out, so no queue worker takes it) is the ledger: an activity retried after the mail
 * left but before it was recorded sends it again (at least once), never on every retry.
 */
export async function sendEmailOnce(db: Db, email: EmailSender, message: OnceEmail): Promise<boolean> {
  const row = await asSystem(db, async (tx) => {
    await tx
      .insertInto('notification_outbox')
      .values({
        channel: 'email',
        recipient: message.to,
        user_id: message.userId,
        kind: message.kind,
        subject: message.subject.slice(0, 500),
        body: message.text,
        dedupe_key: message.dedupeKey.slice(0, 255),
        status: 'sending',
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
    return tx
      .selectFrom('notification_outbox')
      .select(['id', 'status'])
      .where('dedupe_key', '=', message.dedupeKey.slice(0, 255))
      .executeTakeFirstOrThrow();
  });
  if (row.status === 'sent') return false;
  await email.send({ to: message.to, subject: message.subject, text: message.text });
  await asSystem(db, (tx) =>
    tx
      .updateTable('notification_outbox')
      .set({ status: 'sent', sent_at: new Date(), attempts: sql<number>`attempts + 1`, last_error: null })
      .where('id', '=', row.id)
      .execute(),
  );
  return true;
}
