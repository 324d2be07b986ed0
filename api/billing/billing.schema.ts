import { z } from 'zod';

export const checkoutResponse = z.object({
  checkoutUrl: z.string().describe("The payment provider's hosted checkout page (or the local one)"),
  checkoutSessionId: z.string(),
  amountTotal: z.number().int().describe('Minor units of the currency: tester count x compensation'),
  currency: z.string(),
  expiresAt: z.string(),
});

export const connectResponse = z.object({
  onboardingUrl: z.string(),
  accountId: z.string(),
});

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

export const localOnboardingResponse = z.object({
  accountId: z.string(),
  payoutsEnabled: z.boolean(),
  returnUrl: z.string().nullable(),
});
