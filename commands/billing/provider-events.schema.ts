import { emailAddress } from '../../lib/validation/email.ts';
import { z } from 'zod';
import {
  int8,
  isoTimestamp,
  storableJson,
  storableString,
  storableText,
} from '../../lib/validation/storable.ts';

/** The provider's event envelope, as far as the route reads it (spec, Events). */
export const paymentEvent = z.object({
  id: storableText(255).min(1),
  type: storableText(100).min(1),
  created: int8(),
  data: z.object({ object: z.record(storableString(), storableJson()) }),
});

const booking = z
  .object({
    bookingId: storableText(255).min(1),
    jobId: z.uuid('Must be a study id'),
    invitee: z.object({ email: emailAddress(), name: storableText(200).optional() }),
    consultant: z.object({ name: storableText(200) }).optional(),
    startsAt: isoTimestamp(),
    endsAt: isoTimestamp().meta({ description: 'Must be after startsAt' }),
  })
  .refine((b) => Date.parse(b.endsAt) > Date.parse(b.startsAt), {
    path: ['endsAt'],
    message: 'Must be after startsAt',
  });

/**
 * The scheduling provider's booking notification (the spec leaves its shape open; ours is
 * documented in docs/decisions/payments.md, "Scheduling webhook"): a booked review call, or its cancellation.
 */
export const schedulingEvent = z.discriminatedUnion('type', [
  z.object({
    id: storableText(255).min(1),
    type: z.literal('booking.created'),
    created: int8().optional(),
    data: booking,
  }),
  z.object({
    id: storableText(255).min(1),
    type: z.literal('booking.cancelled'),
    created: int8().optional(),
    data: z.object({ bookingId: storableText(255).min(1) }),
  }),
]);

export type SchedulingEvent = z.output<typeof schedulingEvent>;
