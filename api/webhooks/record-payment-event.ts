import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  findProviderEvent,
  insertProviderEvent,
  markEventProcessed,
} from '../../db/repositories/provider-events.ts';
import { paymentEventWorkflow, paymentEventWorkflowId } from '../../workflows/payment-events.ts';
import { ApiError } from '../http/errors.ts';
import { paymentEventEffect, type PaymentEvent } from './payment-event-effects.ts';

export interface PaymentEventDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly now: () => Date;
}

/**
 * Records a verified event by its id together with its database effects, in one transaction: a
 * failure leaves nothing behind and answers non-200, so the provider delivers it again. A repeat
 * of a recorded event changes nothing. Whatever follows (signals, mail) runs in the event's
 * workflow; the event counts as processed once that workflow is started, and a repeat of an event
 * whose workflow could not be started starts it.
 */
export async function recordPaymentEvent(deps: PaymentEventDependencies, event: PaymentEvent): Promise<void> {
  const at = deps.now();
  const { followUp } = await asSystem(deps.db, async (tx) => {
    const fresh = await insertProviderEvent(
      tx,
      {
        provider: 'payments',
        id: event.id,
        type: event.type,
        payload: event as unknown as Record<string, unknown>,
        created: event.created,
      },
      at,
    );
    if (!fresh) {
      const stored = await findProviderEvent(tx, 'payments', event.id);
      return stored?.processed_at ? {} : paymentEventEffect(tx, event, at, false);
    }
    const effect = await paymentEventEffect(tx, event, at, true);
    if (!effect.followUp) await markEventProcessed(tx, 'payments', event.id, at, effect.note ?? null);
    return effect;
  });
  if (!followUp) return;

  try {
    await deps.temporal.workflow.start(paymentEventWorkflow, {
      workflowId: paymentEventWorkflowId(event.id),
      taskQueue: deps.taskQueue,
      args: [{ eventId: event.id, followUp }],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
      throw new ApiError(
        'unavailable',
        'Event recorded, but its processing could not be queued; deliver it again',
      );
    }
  }
  await asSystem(deps.db, (tx) => markEventProcessed(tx, 'payments', event.id, deps.now()));
}
