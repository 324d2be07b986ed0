import type { Insertable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ReviewCallBookingsTable } from '../schema-payments.ts';

// Review calls booked through the scheduling provider (0019), keyed by the provider's booking id.

export type BookingDetails = Omit<
  Insertable<ReviewCallBookingsTable>,
  'id' | 'provider_booking_id' | 'created_at'
>;

/** Records a booking; a rescheduled booking (a new event for the same booking id) takes the new details. */
export async function upsertBooking(
  tx: Tx,
  providerBookingId: string,
  booking: BookingDetails,
  createdAt: Date,
): Promise<void> {
  await tx
    .insertInto('review_call_bookings')
    .values({ ...booking, provider_booking_id: providerBookingId, created_at: createdAt })
    .onConflict((oc) => oc.column('provider_booking_id').doUpdateSet(booking))
    .execute();
}

/** Marks the booking cancelled; false when no booking has this id. */
export async function cancelBooking(tx: Tx, providerBookingId: string, at: Date): Promise<boolean> {
  const cancelled = await tx
    .updateTable('review_call_bookings')
    .set({ status: 'cancelled', updated_at: at })
    .where('provider_booking_id', '=', providerBookingId)
    .returning('id')
    .executeTakeFirst();
  return cancelled !== undefined;
}
