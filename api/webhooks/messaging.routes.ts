import type { Db } from '../../db/connection.ts';
import { messagingWebhookCredential, WEBHOOK_SECRET_HEADER } from '../auth/service-credentials.ts';
import { malformed } from '../http/errors.ts';
import { admitWebhookDelivery } from '../http/rate-limit.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { validateBody } from '../http/validate.ts';
import { messagingReceivedResponse, messagingUpdate } from './messaging.schema.ts';
import { receiveMessagingUpdate } from './messaging-update.ts';

export interface MessagingWebhookDependencies {
  readonly db: Db;
  /** MESSAGING_WEBHOOK_SECRET; unset: the route answers 503. */
  readonly secret: string | undefined;
  readonly now: () => Date;
}

function parseObject(raw: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed('Body must be JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw malformed('Body must be a JSON object');
  return parsed as Record<string, unknown>;
}

export function messagingWebhookRoutes(deps: MessagingWebhookDependencies): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/messaging',
      tag: 'Webhooks',
      summary:
        "The messaging bot's updates (`x-webhook-secret`): each is recorded by update_id; `/start <code>` links the tester's chat",
      auth: 'public',
      credential: messagingWebhookCredential(deps.secret),
      rawBody: true,
      body: messagingUpdate,
      headers: { [WEBHOOK_SECRET_HEADER]: 'MESSAGING_WEBHOOK_SECRET' },
      response: messagingReceivedResponse,
      errors: [400, 422],
      handler: async ({ ctx, rawBody }) => {
        await admitWebhookDelivery(ctx);
        const raw = parseObject(rawBody!);
        const update = validateBody(messagingUpdate, raw);
        const linked = await receiveMessagingUpdate(deps.db, update, raw, deps.now());
        return { data: { received: true, linked } };
      },
    }),
  ];
}
