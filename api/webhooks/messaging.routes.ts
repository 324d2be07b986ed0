import type { Logger } from 'pino';
import type { MessagingSender } from '../../clients/messaging.ts';
import { messagingWebhookCredential, WEBHOOK_SECRET_HEADER } from '../auth/service-credentials.ts';
import { malformed } from '../../lib/errors.ts';
import { admitWebhookDelivery } from '../http/rate-limit.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { validateBody } from '../../lib/validation/validate.ts';
import { messagingUpdate } from '../../commands/messaging/messaging-update.schema.ts';
import { messagingReceivedResponse } from './messaging.schema.ts';
import { answerInChat, receiveMessagingUpdate } from '../../commands/messaging/receive-update.ts';
import type { CommandContext } from '../../commands/context.ts';

export interface MessagingWebhookDependencies extends CommandContext {
  /** The bot, to answer a pressed button's callback query. */
  readonly messaging: MessagingSender;
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
      credential: messagingWebhookCredential(deps.config.serviceCredentials.messagingWebhookSecret),
      rawBody: true,
      body: messagingUpdate,
      headers: { [WEBHOOK_SECRET_HEADER]: 'MESSAGING_WEBHOOK_SECRET' },
      response: messagingReceivedResponse,
      errors: [400, 422],
      handler: async ({ ctx, rawBody }) => {
        await admitWebhookDelivery(ctx);
        const raw = parseObject(rawBody!);
        const update = validateBody(messagingUpdate, raw);
        const received = await receiveMessagingUpdate(deps, update, raw);
        const offer = received.offerAnswer
          ? await answerInChat(deps, received.offerAnswer, update.update_id)
          : undefined;
        if (received.callbackQueryId) {
          // Only stops the button's spinner (the chat hears the outcome): a failure is logged, not answered.
          await deps.messaging
            .answerCallback(received.callbackQueryId)
            .catch((error: unknown) =>
              (ctx.state.log as Logger).warn({ err: error }, 'callback query not answered'),
            );
        }
        return { data: { received: true, linked: received.linked, ...(offer ? { offer } : {}) } };
      },
    }),
  ];
}
