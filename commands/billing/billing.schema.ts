import { z } from 'zod';
import { storableText } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

// DESIGN.md, "Billing bodies": checkout {jobId} -> {checkoutUrl, checkoutSessionId};
// connect {returnUrl} -> {onboardingUrl, accountId}; payout {jobId} -> {queued}.

export const checkoutBody = z.object({ jobId: referencedId('a study id') });

export const connectBody = z.object({
  returnUrl: z
    .url({ protocol: /^https?$/, error: 'Must be an http(s) URL' })
    .max(2048)
    .describe("Where the provider sends the tester back; the service's own origin or a sub-domain"),
});

export const payoutBody = z.object({ jobId: referencedId('a study id') });

export const localOnboardingQuery = z.object({ returnUrl: storableText(2048).optional() });
