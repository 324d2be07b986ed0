import { z } from 'zod';
import { storableText } from '../validation/storable.ts';

// DESIGN.md, "Billing bodies": checkout {jobId} -> {checkoutUrl, checkoutSessionId};
// connect {returnUrl} -> {onboardingUrl, accountId}; payout {jobId} -> {queued}.

export const checkoutBody = z.object({ jobId: z.uuid('Must be a study id') });
export const checkoutResponse = z.object({
  checkoutUrl: z.string().describe("The payment provider's hosted checkout page (or the local one)"),
  checkoutSessionId: z.string(),
  amountTotal: z.number().int().describe('Minor units of the currency: tester count x compensation'),
  currency: z.string(),
  expiresAt: z.string(),
});

export const connectBody = z.object({
  returnUrl: z
    .url({ protocol: /^https?$/, error: 'Must be an http(s) URL' })
    .max(2048)
    .describe("Where the provider sends the tester back; the service's own origin or a sub-domain"),
});
export const connectResponse = z.object({
  onboardingUrl: z.string(),
  accountId: z.string(),
});

export const payoutBody = z.object({ jobId: z.uuid('Must be a study id') });
export const payoutResponse = z.object({
  queued: z
    .number()
    .int()
    .describe(
      'Payments of confirmed, unpaid sessions now in a payout workflow (already running ones included)',
    ),
});

// The local provider's pages (no payment credentials): the stand-ins of the hosted pages.
export const localCheckoutParams = z.object({ id: z.string().regex(/^cs_local_[0-9a-f]{24}$/) });
export const localCheckoutResponse = z.object({
  checkoutSessionId: z.string(),
  jobId: z.string(),
  status: z.enum(['complete']),
});
export const localOnboardingParams = z.object({ accountId: z.string().regex(/^acct_local_[0-9a-f]{24}$/) });
export const localOnboardingQuery = z.object({ returnUrl: storableText(2048).optional() });
export const localOnboardingResponse = z.object({
  accountId: z.string(),
  payoutsEnabled: z.boolean(),
  returnUrl: z.string().nullable(),
});
