import { defineRoute, type RouteDefinition } from '../http/route.ts';
import {
  checkoutResponse,
  connectResponse,
  localCheckoutParams,
  localCheckoutResponse,
  localOnboardingParams,
  localOnboardingResponse,
  payoutResponse,
} from './billing.schema.ts';
import {
  checkoutBody,
  connectBody,
  localOnboardingQuery,
  payoutBody,
} from '../../commands/billing/billing.schema.ts';
import { startCheckout } from '../../commands/billing/checkout.ts';
import { startOnboarding } from '../../commands/billing/connect.ts';
import { completeLocalCheckout, completeLocalOnboarding } from '../../commands/billing/local-provider.ts';
import { queuePayouts } from '../../commands/billing/payout.ts';
import type { CommandContext } from '../../commands/context.ts';

export function billingRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/billing/checkout',
      tag: 'Billing',
      summary:
        "Create the payment provider's checkout session for a draft study (tester count x compensation)",
      auth: 'user',
      roles: ['business'],
      body: checkoutBody,
      response: checkoutResponse,
      errors: [404, 409, 503],
      handler: async ({ body, principal }) => ({ data: await startCheckout(deps, principal, body.jobId) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/billing/connect',
      tag: 'Billing',
      summary: "Start the calling tester's payout-account onboarding (connected account and onboarding link)",
      auth: 'user',
      roles: ['tester'],
      body: connectBody,
      response: connectResponse,
      errors: [503],
      handler: async ({ body, principal }) => ({
        data: await startOnboarding(deps, principal, body.returnUrl),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/billing/payout',
      tag: 'Billing',
      summary: 'Pay out every confirmed, unpaid session of a completed study (one payout workflow each)',
      auth: 'user',
      roles: ['business', 'admin'],
      body: payoutBody,
      response: payoutResponse,
      status: 202,
      errors: [404, 409, 503],
      handler: async ({ body, principal }) => ({ data: await queuePayouts(deps, principal, body.jobId) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/billing/local-checkout/:id',
      tag: 'Billing',
      summary:
        'Local payment provider only (no credentials): pays the checkout session through the webhook route',
      auth: 'public',
      params: localCheckoutParams,
      resource: 'Checkout session',
      response: localCheckoutResponse,
      errors: [409, 503],
      handler: async ({ params }) => ({ data: await completeLocalCheckout(deps, params.id) }),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/billing/local-onboarding/:accountId',
      tag: 'Billing',
      summary:
        'Local payment provider only (no credentials): completes payout-account onboarding through the webhook route',
      auth: 'public',
      params: localOnboardingParams,
      query: localOnboardingQuery,
      resource: 'Payout account',
      response: localOnboardingResponse,
      errors: [503],
      handler: async ({ params, query }) => ({
        data: await completeLocalOnboarding(deps, params.accountId, query.returnUrl),
      }),
    }),
  ];
}
