import { Context } from '@temporalio/activity';
import { startWebhookDeliveries } from '../../clients/webhook-deliveries.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { pendingDeliveriesOfKey } from '../../db/repositories/webhooks.ts';

/**
 * From inside an activity, once the transaction that recorded the deliveries has committed:
 * starts their workflows with the worker's client, on `taskQueue` (the service's; by default the
 * activity's own). Best effort: the change they announce is committed, and failing the activity
 * now would only repeat its work (an audit's email, say); a delivery left unstarted (Temporal
 * unreachable, or the worker dying first) is started by the lifecycle reconciler.
 */
export async function announceDeliveries(deliveryIds: readonly string[], taskQueue?: string): Promise<void> {
  if (!deliveryIds.length) return;
  const context = Context.current();
  try {
    await startWebhookDeliveries(context.client, taskQueue ?? context.info.taskQueue, deliveryIds);
  } catch (error) {
    context.log.warn('Webhook deliveries not started: the lifecycle reconciler starts them', {
      deliveries: deliveryIds.length,
      error: String(error),
    });
  }
}

/** The same for an event recorded in another's transaction, found by its dedupe key. */
export async function announceEvent(db: Db, dedupeKey: string): Promise<void> {
  await announceDeliveries(await asSystem(db, (tx) => pendingDeliveriesOfKey(tx, dedupeKey)));
}
