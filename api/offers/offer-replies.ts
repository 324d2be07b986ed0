import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';
import { OFFER_OUTCOME_TEXT, type OfferOutcome } from '../../lib/offers.ts';
import { startNotificationDelivery } from '../../clients/temporal.ts';

export interface OfferReplyDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly now: () => Date;
}

/**
 * Tells the tester in their chat what their button did, through the outbox once per update (a
 * repeated delivery of the update queues nothing new) and the notification workflow.
 */
export async function replyToTester(
  deps: OfferReplyDependencies,
  reply: {
    readonly chatId: string;
    readonly testerId: string;
    readonly outreachId: string;
    readonly outcome: OfferOutcome;
    readonly dedupeKey: string;
  },
): Promise<void> {
  const notificationId = await asSystem(deps.db, (tx) =>
    queueNotificationOnce(
      tx,
      {
        channel: 'messaging',
        recipient: reply.chatId,
        userId: reply.testerId,
        kind: 'offer_answer',
        body: OFFER_OUTCOME_TEXT[reply.outcome],
        dedupeKey: reply.dedupeKey,
        payload: { outreachId: reply.outreachId, outcome: reply.outcome },
      },
      deps.now(),
    ),
  );
  await startNotificationDelivery(deps.temporal, deps.taskQueue, notificationId);
}
