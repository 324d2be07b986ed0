// What an organization's endpoint receives (docs/decisions/webhooks.md): the body, in the payment
// provider's event shape, and the headers beside it.

/** The headers of every delivery: the event's id (the same on every attempt), the attempt, the signature. */
export const WEBHOOK_HEADERS = {
  id: 'Webhook-Id',
  attempt: 'Webhook-Attempt',
  signature: 'Webhook-Signature',
} as const;

export interface WebhookEventBody {
  readonly id: string;
  readonly type: string;
  readonly createdAt: Date;
  readonly organizationId: string;
  readonly object: Record<string, unknown>;
}

/** The JSON body, byte for byte the same on every attempt (only the signature's timestamp changes). */
export function webhookBody(event: WebhookEventBody): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created: Math.floor(event.createdAt.getTime() / 1000),
    organizationId: event.organizationId,
    data: { object: event.object },
  });
}
