import { z } from 'zod';

export const receivedResponse = z.object({ received: z.literal(true) });
