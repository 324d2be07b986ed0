import { z } from 'zod';
import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_ENDPOINT_STATUSES,
  WEBHOOK_EVENT_TYPES,
} from '../../lib/domain.ts';

export const webhookEndpointIdParams = z.object({ id: z.uuid() });

export const webhookEndpointView = z.object({
  endpointId: z.uuid(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  status: z.enum(WEBHOOK_ENDPOINT_STATUSES),
  disabledReason: z
    .enum(['owner', 'failing'])
    .nullable()
    .describe(
      'owner: turned off by the organization; failing: by the service after a delivery failed for three days',
    ),
  disabledAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export const createdWebhookEndpointView = webhookEndpointView.extend({
  secret: z
    .string()
    .describe('The signing secret (HMAC-SHA256 of "<t>.<raw body>" in Webhook-Signature), shown this once'),
});

export const deletedWebhookEndpointView = z.object({ endpointId: z.uuid(), deleted: z.literal(true) });

export const webhookDeliveryView = z.object({
  deliveryId: z.uuid(),
  eventId: z.uuid().describe("The Webhook-Id header and the body's id: the same on every attempt"),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z
    .enum(WEBHOOK_DELIVERY_STATUSES)
    .describe(
      'pending: being tried; delivered: a 2xx came back; failed: three days of attempts failed; cancelled: the endpoint was disabled or unsubscribed from its type first',
    ),
  attempts: z.number().int(),
  lastResponseCode: z
    .number()
    .int()
    .nullable()
    .describe("The receiver's status at the last attempt; null when none came back"),
  lastError: z.string().nullable(),
  lastAttemptAt: z.iso.datetime().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
