import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  claimNotification,
  markNotificationSent,
  queueNotificationOnce,
} from '../../db/repositories/notification-outbox.ts';
import type { EmailSender } from '../../clients/email.ts';

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
  const claimed = await asSystem(db, async (tx) => {
    const id = await queueNotificationOnce(
      tx,
      {
        channel: 'email',
        recipient: message.to,
        userId: message.userId,
        kind: message.kind,
        subject: message.subject,
        body: message.text,
        dedupeKey: message.dedupeKey,
        status: 'sending',
      },
      new Date(),
    );
    // Undefined once the row is sent: this mail has already left.
    return claimNotification(tx, id);
  });
  if (!claimed) return false;
  await email.send({ to: message.to, subject: message.subject, text: message.text });
  await asSystem(db, (tx) => markNotificationSent(tx, claimed.id, email.destination, new Date()));
  return true;
}
