import { z } from 'zod';
import { int8, storableJson, storableString, storableText } from '../../lib/validation/storable.ts';

export const receivedResponse = z.object({ received: z.literal(true) });

export const paymentEvent = z.object({
  id: storableText(255).min(1),
  type: storableText(100).min(1),
  created: int8(),
  data: z.object({ object: z.record(storableString(), storableJson()) }),
});
