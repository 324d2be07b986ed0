import { z } from 'zod';

export const receivedResponse = z.object({ received: z.literal(true) });

/** The provider's event envelope, as far as the route reads it (spec, Events). */
export const paymentEvent = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  created: z.number().int(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

const booking = z
  .object({
    bookingId: z.string().min(1).max(255),
    jobId: z.uuid('Must be a study id'),
    invitee: z.object({ email: z.email().max(320), name: z.string().max(200).optional() }),
    consultant: z.object({ name: z.string().max(200) }).optional(),
    startsAt: z.iso.datetime({ offset: true }),
    endsAt: z.iso.datetime({ offset: true }),
  })
  .refine((b) => Date.parse(b.endsAt) > Date.parse(b.startsAt), {
    path: ['endsAt'],
    message: 'Must be after startsAt',
  });

/**
 * The scheduling provider's booking notification (the spec leaves its shape open; ours is
 * documented in docs/decisions.md): a booked review call, or its cancellation.
 */
export const schedulingEvent = z.discriminatedUnion('type', [
  z.object({
    id: z.string().min(1).max(255),
    type: z.literal('booking.created'),
    created: z.number().int().optional(),
    data: booking,
  }),
  z.object({
    id: z.string().min(1).max(255),
    type: z.literal('booking.cancelled'),
    created: z.number().int().optional(),
    data: z.object({ bookingId: z.string().min(1).max(255) }),
  }),
]);

export type SchedulingEvent = z.output<typeof schedulingEvent>;
