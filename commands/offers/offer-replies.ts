import { asSystem } from '../../db/doors.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';
import { OFFER_OUTCOME_TEXT, type OfferOutcome } from '../../lib/offers.ts';
import { startNotificationDelivery } from '../../clients/temporal.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * Tells the tester in their chat what their button did, through the outbox once per update (a
 * repeated delivery of the update queues nothing new) and the notification workflow.
 */
export async function replyToTester(
  deps: CommandContext,
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
  await startNotificationDelivery(deps.temporal, serviceTaskQueue(deps), notificationId);
}
