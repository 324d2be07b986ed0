import { ApplicationFailure, log } from '@temporalio/activity';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  claimNotification,
  markNotificationFailed,
  markNotificationSent,
  releaseNotification,
} from '../../db/repositories/notification-outbox.ts';
import { isPermanentMessagingFailure, type MessagingSender } from '../../clients/messaging.ts';
import { MissingSecret, withSecret } from '../../lib/outbox-messages.ts';
import { PERMANENT_DELIVERY_FAILURE } from '../../lib/failures.ts';

export interface NotificationActivityDependencies {
  readonly db: Db;
  readonly messaging: MessagingSender;
  readonly now?: () => Date;
}

/** Named so the workflow gives a message up at once instead of retrying what can never succeed. */

/** Delivery of the notification outbox (db/migrations/0009): one attempt per call, recorded on the row. */
export function createNotificationActivities({
  db,
  messaging,
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
      try {
        if (row.channel !== 'messaging') {
          throw ApplicationFailure.nonRetryable(
            `channel ${row.channel} is not delivered from the outbox`,
            PERMANENT_DELIVERY_FAILURE,
          );
        }
        const secret = typeof row.payload.secret === 'string' ? row.payload.secret : undefined;
        const text = withSecret(row.body, secret);
        await messaging.send({ chatId: row.recipient, text });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        await asSystem(db, (tx) => releaseNotification(tx, notificationId, reason));
        if (isPermanentMessagingFailure(error) || error instanceof MissingSecret) {
          throw ApplicationFailure.nonRetryable(reason, PERMANENT_DELIVERY_FAILURE);
        }
        throw error;
      }
      await asSystem(db, (tx) => markNotificationSent(tx, notificationId, messaging.destination, now()));
      log.info(
        messaging.local
          ? 'message written to the local outbox (local delivery: no MESSAGING_BOT_TOKEN)'
          : 'message sent through the bot API',
        { notificationId, kind: row.kind, destination: messaging.destination },
      );
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
