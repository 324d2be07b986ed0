import { createHash } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { asSystem } from '../../db/doors.ts';
import {
  findProviderEvent,
  insertProviderEvent,
  markEventProcessed,
} from '../../db/repositories/provider-events.ts';
import { paymentEventWorkflowId } from '../../workflows/messages/payment-events.ts';
import { paymentEventWorkflow } from '../../workflows/payment-events.ts';
import { ApiError } from '../../lib/errors.ts';
import { paymentEventEffect, type PaymentEvent } from './payment-event-effects.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * Records a verified event by its id together with its database effects, in one transaction: a
 * failure leaves nothing behind and answers non-200, so the provider delivers it again. A repeat
 * of a recorded event changes nothing. Whatever follows (signals, mail) runs in the event's
 * workflow; the event counts as processed once that workflow is started, and a repeat of an event
 * whose workflow could not be started starts it.
 */
export async function recordPaymentEvent(deps: CommandContext, event: PaymentEvent): Promise<void> {
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
      taskQueue: serviceTaskQueue(deps),
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

/**
 * A correctly signed delivery the service cannot read as an event (not JSON, or an envelope without
 * a usable id, type, created or data.object): no delivery of it will ever read better, so it is
 * recorded (and answered 200, like any recorded event) instead of being refused for the provider
 * to retry for days. It is kept under its own id when it has a usable one, otherwise under one
 * derived from its bytes, so its repeats collide; it is marked processed with the reason and
 * changes nothing else.
 */
export async function recordUnreadablePaymentEvent(
  deps: Pick<CommandContext, 'db' | 'now'>,
  rawBody: Buffer,
  parsed: unknown,
  reason: string,
): Promise<void> {
  const body = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  const field = (name: string, max: number) => {
    const value = (body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
  };
  const id = field('id', 255) ?? `unreadable_${createHash('sha256').update(rawBody).digest('hex')}`;
  const at = deps.now();
  await asSystem(deps.db, async (tx) => {
    const fresh = await insertProviderEvent(
      tx,
      {
        provider: 'payments',
        id,
        type: field('type', 100) ?? 'unreadable',
        payload: (body as Record<string, unknown> | undefined) ?? {
          rawBody: rawBody.toString('utf8').replaceAll('\u0000', ''),
        },
      },
      at,
    );
    if (fresh)
      await markEventProcessed(tx, 'payments', id, at, `not an event the service can read: ${reason}`);
  });
}
