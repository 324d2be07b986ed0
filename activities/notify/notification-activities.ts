import { ApplicationFailure, log } from '@temporalio/activity';
import { type OfferLinkSettings, withOfferLinks } from '../../lib/offer-links.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  claimNotification,
  markNotificationFailed,
  markNotificationSent,
  releaseNotification,
} from '../../db/repositories/notification-outbox.ts';
import type { EmailSender } from '../../clients/email.ts';
import { isPermanentMessagingFailure, type MessagingSender } from '../../clients/messaging.ts';
import type { ChatButton } from '../../lib/offer-messages.ts';
import { MissingSecret, withSecret } from '../../lib/outbox-messages.ts';
import { PERMANENT_DELIVERY_FAILURE } from '../../lib/failures.ts';

export interface NotificationActivityDependencies {
  readonly db: Db;
  readonly messaging: MessagingSender;
  /** Mail for the outbox's email rows (offers and their answers to testers without a chat, businesses). */
  readonly email: EmailSender;
  /** Fills in an offer email's answer links, which the outbox stores as placeholders. */
  readonly offerLinks: OfferLinkSettings;
  readonly now?: () => Date;
}

/** The chat buttons a queued message carries in its payload (an offer's accept and decline). */
function buttonsOf(payload: Record<string, unknown>): ChatButton[] | undefined {
  const buttons = payload.buttons;
  if (!Array.isArray(buttons)) return undefined;
  return buttons.filter(
    (button): button is ChatButton =>
      typeof (button as ChatButton)?.text === 'string' && typeof (button as ChatButton)?.data === 'string',
  );
}

/** Delivery of the notification outbox (db/migrations/0009): one attempt per call, recorded on the row. */
export function createNotificationActivities({
  db,
  messaging,
  email,
  offerLinks,
  now = () => new Date(),
}: NotificationActivityDependencies) {
  return {
    /**
     * Sends one queued message. A message already sent or given up is left alone, so a repeated
     * workflow does not send again what the outbox records as delivered; a crash between sending
     * and recording sends it once more (at least once).
     */
    async deliverNotification({ notificationId }: { notificationId: string }): Promise<'sent' | 'skipped'> {
      const row = await asSystem(db, (tx) => claimNotification(tx, notificationId));
      if (!row) return 'skipped';
      const destination = row.channel === 'email' ? email.destination : messaging.destination;
      try {
        const secret = typeof row.payload.secret === 'string' ? row.payload.secret : undefined;
        const outreachId = typeof row.payload.outreachId === 'string' ? row.payload.outreachId : undefined;
        const withSecrets = withSecret(row.body, secret);
        const text = outreachId ? withOfferLinks(withSecrets, outreachId, offerLinks) : withSecrets;
        if (row.channel === 'email') {
          await email.send({ to: row.recipient, subject: row.subject ?? '', text });
        } else {
          const buttons = buttonsOf(row.payload);
          await messaging.send({ chatId: row.recipient, text, ...(buttons ? { buttons } : {}) });
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await asSystem(db, (tx) => releaseNotification(tx, notificationId, reason));
        if (isPermanentMessagingFailure(error) || error instanceof MissingSecret) {
          throw ApplicationFailure.nonRetryable(reason, PERMANENT_DELIVERY_FAILURE);
        }
        throw error;
      }
      await asSystem(db, (tx) => markNotificationSent(tx, notificationId, destination, now()));
      const note =
        row.channel === 'email'
          ? 'mail sent'
          : messaging.local
            ? 'message written to the local outbox (local delivery: no MESSAGING_BOT_TOKEN)'
            : 'message sent through the bot API';
      log.info(note, { notificationId, kind: row.kind, destination });
      return 'sent';
    },

    /** The workflow stopped trying: the message is recorded as failed and its secret dropped. */
    async giveUpNotification({ notificationId, reason }: { notificationId: string; reason: string }) {
      await asSystem(db, (tx) => markNotificationFailed(tx, notificationId, reason));
      log.warn('message given up', { notificationId, reason });
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
