import { z } from 'zod';
import { OFFER_OUTCOMES } from '../../lib/offers.ts';

export const messagingReceivedResponse = z.object({
  received: z.literal(true),
  linked: z
    .boolean()
    .describe("true when the update was a /start with a valid link code and linked the sender's chat"),
  offer: z
    .enum(OFFER_OUTCOMES)
    .optional()
    .describe("when the update was an offer's accept or decline button pressed by its tester: what it did"),
});
