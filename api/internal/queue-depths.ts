import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { countByStatus } from '../../db/repositories/queue-depths.ts';

/** Work waiting in each of the service's queues, counted by status (finished rows are not counted). */
export interface QueueDepths {
  /** queued_ai_work: analysis steps waiting for a provider (the ai-retry schedule takes them). */
  readonly aiWork: { readonly queued: number; readonly processing: number; readonly failed: number };
  /** notification_outbox: messages to testers and businesses not yet delivered. */
  readonly notifications: { readonly pending: number; readonly sending: number; readonly failed: number };
  /** payments: payouts to testers not yet paid. */
  readonly payments: { readonly queued: number; readonly processing: number; readonly failed: number };
  /** The oldest AI step or message still waiting, so a stuck queue shows as well as a long one. */
  readonly oldestWaiting: { readonly aiWork: string | null; readonly notification: string | null };
}

/** Across every organization: operators' view, through the system door. */
export function queueDepths(db: Db): Promise<QueueDepths> {
  return asSystem(db, async (tx) => {
    const waiting = ['queued', 'processing', 'failed'] as const;
    const aiWork = await countByStatus(tx, 'queued_ai_work', 'created_at', waiting);
    const notifications = await countByStatus(tx, 'notification_outbox', 'created_at', [
      'pending',
      'sending',
      'failed',
    ] as const);
    const payments = await countByStatus(tx, 'payments', 'queued_at', waiting);
    return {
      aiWork: aiWork.counts,
      notifications: notifications.counts,
      payments: payments.counts,
      oldestWaiting: {
        aiWork: aiWork.oldest.queued?.toISOString() ?? null,
        notification: notifications.oldest.pending?.toISOString() ?? null,
      },
    };
  });
}
