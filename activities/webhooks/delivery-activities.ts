import { postWebhook } from '../../clients/webhooks/post-webhook.ts';
import { announceEvent } from './announce.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { queueNotificationOnce } from '../../db/repositories/notification-outbox.ts';
import {
  closeDelivery,
  deliveryToAttempt,
  disableFailingEndpoint,
  findWebhookEndpoint,
  organizationOwners,
  recordDeliveryAttempt,
} from '../../db/repositories/webhooks.ts';
import type { UrlPolicy } from '../../lib/url-guard.ts';
import { WEBHOOK_ATTEMPT_TIMEOUT_MS } from '../../lib/webhook-schedule.ts';
import { signWebhook } from '../../lib/webhook-signing.ts';
import { webhookBody, WEBHOOK_HEADERS } from '../../lib/webhook-payload.ts';
import type { WebhookDeliveryOutcome } from '../../workflows/messages/webhook-delivery.ts';

export interface WebhookActivityDependencies {
  readonly db: Db;
  /** Where deliveries may go: the audits' URL policy (no private or metadata addresses in production). */
  readonly urlPolicy: UrlPolicy;
  /** The service's origin: the owners' notice links the endpoint's page there. */
  readonly baseUrl: string;
  readonly now?: () => Date;
  /** How long one attempt waits for an answer; tests shorten it. */
  readonly attemptTimeoutMs?: number;
}

/** What one attempt came to: `failed` is tried again on the workflow's schedule; the others end it. */
export type AttemptResult = WebhookDeliveryOutcome;

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
     * since this one was recorded (its first attempt followed at once), and then each owner of the organization is sent one email
     * (outbox rows, whose ids the workflow delivers). The notices are keyed by the disabling
     * itself, so a retry of this activity after its commit finds them again instead of losing them.
     */
    async giveUpWebhookDelivery(input: { deliveryId: string }): Promise<string[]> {
      return asSystem(deps.db, async (tx) => {
        const delivery = await deliveryToAttempt(tx, input.deliveryId);
        if (!delivery) return [];
        const at = now();
        if (await closeDelivery(tx, input.deliveryId, 'failed')) {
          // Since it was recorded, on the database's clock as every delivered_at is.
          await disableFailingEndpoint(tx, delivery.endpoint_id, delivery.created_at, at);
        }
        const endpoint = await findWebhookEndpoint(tx, delivery.endpoint_id, delivery.organization_id);
        if (endpoint?.disabled_reason !== 'failing' || !endpoint.disabled_at) return [];
        const disabledAt = endpoint.disabled_at;
        const notices: string[] = [];
        for (const owner of await organizationOwners(tx, delivery.organization_id)) {
          notices.push(
            await queueNotificationOnce(
              tx,
              {
                channel: 'email',
                recipient: owner.email,
                userId: owner.id,
                kind: 'webhook_endpoint_disabled',
                subject: 'A webhook endpoint was disabled',
                body: disabledNotice(endpoint.id, endpoint.url, delivery.created_at, deps.baseUrl),
                dedupeKey: `webhook-disabled:${endpoint.id}:${disabledAt.toISOString()}:${owner.id}`,
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

function disabledNotice(endpointId: string, url: string, failingSince: Date, baseUrl: string): string {
  return [
    `Your webhook endpoint ${url} has not accepted a delivery since ${failingSince.toISOString()}, and one`,
    'delivery failed every attempt for three days, so it has been disabled: no new events are sent to it.',
    '',
    `Fix the receiver, then turn it on again on its page, ${new URL(`/dashboard/webhooks/${endpointId}`, baseUrl).href}`,
    `(or with PATCH /api/webhook-endpoints/${endpointId} and {"enabled": true}); its delivery log there`,
    'says what it answered.',
  ].join('\n');
}
