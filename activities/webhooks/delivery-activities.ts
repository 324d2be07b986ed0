import { postWebhook } from '../../clients/webhooks/post-webhook.ts';
import { announceEvent } from './announce.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';
import {
  closeDelivery,
  deliveryToAttempt,
  disableFailingEndpoint,
  organizationOwners,
  recordDeliveryAttempt,
} from '../../db/repositories/webhooks.ts';
import type { UrlPolicy } from '../../lib/url-guard.ts';
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from '../../lib/webhook-schedule.ts';
import { signWebhook } from '../../lib/webhook-signing.ts';
import { webhookBody, WEBHOOK_HEADERS } from '../../lib/webhook-payload.ts';

export interface WebhookActivityDependencies {
  readonly db: Db;
  /** Where deliveries may go: the audits' URL policy (no private or metadata addresses in production). */
  readonly urlPolicy: UrlPolicy;
  /** Where the owners' notice links to (the endpoints' page). */
  readonly baseUrl: string;
  readonly now?: () => Date;
  /** How long one attempt waits for an answer; tests shorten it. */
  readonly attemptTimeoutMs?: number;
}

/** What one attempt came to: `failed` is tried again on the workflow's schedule. */
export type AttemptResult = 'delivered' | 'failed' | 'cancelled' | 'closed';

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

export function createWebhookActivities(deps: WebhookActivityDependencies) {
  const now = deps.now ?? (() => new Date());
  return {
    /**
     * One signed POST of the delivery's event. A delivery no longer pending is left alone; one
     * whose endpoint is disabled, deleted or no longer subscribed to its type is cancelled. The
     * attempt is recorded with the receiver's status (or why there was none) and, when it failed,
     * when the next one is due.
     */
    async attemptWebhookDelivery(input: {
      deliveryId: string;
      nextDelayMs: number | null;
    }): Promise<AttemptResult> {
      const delivery = await asSystem(deps.db, (tx) => deliveryToAttempt(tx, input.deliveryId));
      if (!delivery || delivery.status !== 'pending') return 'closed';
      if (delivery.endpoint_status !== 'enabled' || !delivery.endpoint_events.includes(delivery.type)) {
        await asSystem(deps.db, (tx) => closeDelivery(tx, input.deliveryId, 'cancelled'));
        return 'cancelled';
      }
      const body = webhookBody({
        id: delivery.event_id,
        type: delivery.type,
        createdAt: delivery.event_created_at,
        organizationId: delivery.organization_id,
        object: delivery.object,
      });
      const attempt = delivery.attempts + 1;
      const result = await postWebhook({
        url: delivery.url,
        body,
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'usability-webhooks/1',
          [WEBHOOK_HEADERS.id]: delivery.event_id,
          [WEBHOOK_HEADERS.attempt]: String(attempt),
          [WEBHOOK_HEADERS.signature]: signWebhook(body, delivery.secret, now()),
        },
        policy: deps.urlPolicy,
        timeoutMs: deps.attemptTimeoutMs ?? WEBHOOK_ATTEMPT_TIMEOUT_MS,
      });
      const delivered = isSuccess(result.responseCode);
      const at = now();
      await asSystem(deps.db, (tx) =>
        recordDeliveryAttempt(tx, input.deliveryId, {
          delivered,
          responseCode: result.responseCode,
          error: delivered ? null : (result.error ?? `The receiver answered ${result.responseCode}`),
          at,
          nextAttemptAt:
            delivered || input.nextDelayMs === null ? null : new Date(at.getTime() + input.nextDelayMs),
        }),
      );
      return delivered ? 'delivered' : 'failed';
    },

    /** Starts the deliveries of an event another transaction recorded (a payout reported paid). */
    async announceWebhookEvent(input: { dedupeKey: string }): Promise<void> {
      await announceEvent(deps.db, input.dedupeKey);
    },

    /**
     * Ends a delivery whose schedule ran out. Its endpoint is disabled when it took no delivery
     * since this one's first attempt, and then each owner of the organization is sent one email
     * (outbox rows, whose ids the workflow delivers).
     */
    async giveUpWebhookDelivery(input: { deliveryId: string; failingSince: string }): Promise<string[]> {
      return asSystem(deps.db, async (tx) => {
        const delivery = await deliveryToAttempt(tx, input.deliveryId);
        if (!delivery || !(await closeDelivery(tx, input.deliveryId, 'failed'))) return [];
        const at = now();
        const disabled = await disableFailingEndpoint(
          tx,
          delivery.endpoint_id,
          new Date(input.failingSince),
          at,
        );
        if (!disabled) return [];
        const owners = await organizationOwners(tx, delivery.organization_id);
        const notices: string[] = [];
        for (const owner of owners) {
          notices.push(
            await queueNotificationOnce(
              tx,
              {
                channel: 'email',
                recipient: owner.email,
                userId: owner.id,
                kind: 'webhook_endpoint_disabled',
                subject: 'A webhook endpoint was disabled',
                body: disabledNotice(disabled.url, input.failingSince, deps.baseUrl),
                dedupeKey: `webhook-disabled:${disabled.id}:${at.toISOString()}:${owner.id}`,
              },
              at,
            ),
          );
        }
        return notices;
      });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;

function disabledNotice(url: string, failingSince: string, baseUrl: string): string {
  return [
    `Your webhook endpoint ${url} has not accepted a delivery since ${failingSince}, and one`,
    'delivery failed every attempt for three days, so it has been disabled: no new events are sent to it.',
    '',
    'Fix the receiver, then enable it again with PATCH /api/webhook-endpoints/:id and {"enabled": true}',
    `(${new URL('/api/docs', baseUrl).href}); its delivery log says what it answered.`,
  ].join('\n');
}
