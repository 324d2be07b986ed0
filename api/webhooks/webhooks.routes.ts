import { SignatureRejected, verifyProviderEvent } from '../../clients/payments/provider-events.ts';
import {
  PAYMENT_SIGNATURE_HEADERS,
  SCHEDULING_SIGNATURE_HEADERS,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureHeader,
  verifyWebhookSignature,
} from '../auth/webhook-signature.ts';
import { ApiError, malformed, unauthenticated } from '../../lib/errors.ts';
import { admitWebhookDelivery } from '../http/rate-limit.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { describeIssue, validateBody } from '../../lib/validation/validate.ts';
import { recordSchedulingEvent } from '../../commands/billing/record-booking.ts';
import {
  recordPaymentEvent,
  recordUnreadablePaymentEvent,
} from '../../commands/billing/record-payment-event.ts';
import { receivedResponse } from './webhooks.schema.ts';
import { paymentEvent } from '../../commands/billing/provider-events.schema.ts';
import { schedulingEvent } from '../../commands/billing/provider-events.schema.ts';
import type { CommandContext } from '../../commands/context.ts';

const received = { data: { received: true } };

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformed('Body must be JSON');
  }
}

const SIGNATURE_SCHEME = 't=<unix seconds>,v1=<hex HMAC-SHA256 of "t.rawBody">';

/** The spec's header and the provider's own, documented with the scheme they share. */
function signatureHeadersDocumented(names: readonly [string, string]): Record<string, string> {
  const [spec, provider] = names;
  return {
    [spec]: SIGNATURE_SCHEME,
    [provider]: `${SIGNATURE_SCHEME}: the provider's own header for the same signature, read when ${spec} is absent`,
  };
}

export function webhookRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/payments',
      tag: 'Webhooks',
      summary:
        "The payment provider's events, signed in Payment-Signature (or the provider's own Stripe-Signature); each is recorded by id before it is acted on",
      auth: 'public',
      rawBody: true,
      body: paymentEvent,
      headers: signatureHeadersDocumented(PAYMENT_SIGNATURE_HEADERS),
      response: receivedResponse,
      errors: [503],
      handler: async ({ ctx, rawBody }) => {
        const secrets = deps.config.payments.webhookSecrets;
        let verified: unknown;
        let unreadable: string | undefined;
        try {
          verified = verifyProviderEvent(
            rawBody!,
            signatureHeader((name) => ctx.get(name), PAYMENT_SIGNATURE_HEADERS),
            secrets,
            SIGNATURE_TOLERANCE_SECONDS,
          );
        } catch (error) {
          if (error instanceof SignatureRejected) throw unauthenticated(error.message);
          // The SDK parses the body only once the signature matched: signed, but not JSON.
          if (!(error instanceof SyntaxError)) throw error;
          unreadable = 'body is not JSON';
        }
        await admitWebhookDelivery(ctx);
        const event = unreadable === undefined ? paymentEvent.safeParse(verified) : undefined;
        if (event?.success) await recordPaymentEvent(deps, event.data);
        else {
          const reason = unreadable ?? describeIssue(event!.error.issues[0]!);
          await recordUnreadablePaymentEvent(deps, rawBody!, verified, reason);
        }
        return received;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/webhooks/scheduling',
      tag: 'Webhooks',
      summary:
        'The scheduling provider: a booked (or cancelled) review call for a study of a pro-plan organization',
      auth: 'public',
      rawBody: true,
      body: schedulingEvent,
      headers: signatureHeadersDocumented(SCHEDULING_SIGNATURE_HEADERS),
      response: receivedResponse,
      errors: [400, 404, 422, 503],
      handler: async ({ ctx, rawBody }) => {
        const secret = deps.config.payments.schedulingWebhookSecret;
        if (!secret)
          throw new ApiError(
            'unavailable',
            'The scheduling webhook is not configured (SCHEDULING_WEBHOOK_SECRET is unset)',
          );
        verifyWebhookSignature({
          header: signatureHeader((name) => ctx.get(name), SCHEDULING_SIGNATURE_HEADERS),
          rawBody: rawBody!,
          secrets: secret,
          now: deps.now(),
        });
        await admitWebhookDelivery(ctx);
        const event = validateBody(schedulingEvent, parseJson(rawBody!));
        await recordSchedulingEvent(deps, event);
        return received;
      },
    }),
  ];
}
