import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { insertProviderEvent, markEventProcessed } from '../../db/repositories/provider-events.ts';
import { forbidden, notFound } from '../http/errors.ts';
import type { SchedulingEvent } from './webhooks.schema.ts';

/**
 * Records a scheduling event. A booking is for a study of an organization on the pro plan (review
 * calls are part of paid plans): an unknown study is 404 and a free plan 403, and such an event is
 * not recorded, so every delivery of it is refused alike. A recorded event's repeat changes nothing.
 */
export async function recordSchedulingEvent(db: Db, event: SchedulingEvent, at: Date): Promise<void> {
  await asSystem(db, async (tx) => {
    if (event.type === 'booking.created') {
      const study = await tx
        .selectFrom('studies')
        .innerJoin('organizations', 'organizations.id', 'studies.organization_id')
        .select(['studies.id', 'studies.organization_id', 'organizations.plan'])
        .where('studies.id', '=', event.data.jobId)
        .executeTakeFirst();
      if (!study) throw notFound('Study');
      if (study.plan !== 'pro') {
        throw forbidden(
          "Review calls are part of the pro plan; the study's organization is on the free plan",
        );
      }
    }
    const fresh = await insertProviderEvent(
      tx,
      {
        provider: 'scheduling',
        id: event.id,
        type: event.type,
        payload: event,
        ...(event.created ? { created: event.created } : {}),
      },
      at,
    );
    if (!fresh) return;

    if (event.type === 'booking.cancelled') {
      const cancelled = await tx
        .updateTable('review_call_bookings')
        .set({ status: 'cancelled', updated_at: at })
        .where('provider_booking_id', '=', event.data.bookingId)
        .returning('id')
        .executeTakeFirst();
      await markEventProcessed(tx, 'scheduling', event.id, at, cancelled ? null : 'unknown booking');
      return;
    }
    const { data } = event;
    const study = await tx
      .selectFrom('studies')
      .select('organization_id')
      .where('id', '=', data.jobId)
      .executeTakeFirstOrThrow();
    const booking = {
      organization_id: study.organization_id,
      study_id: data.jobId,
      provider_event_id: event.id,
      invitee_email: data.invitee.email.toLowerCase(),
      invitee_name: data.invitee.name ?? null,
      consultant_name: data.consultant?.name ?? null,
      starts_at: data.startsAt,
      ends_at: data.endsAt,
      status: 'booked' as const,
      updated_at: at,
    };
    // A rescheduled booking arrives as a new event for the same booking id.
    await tx
      .insertInto('review_call_bookings')
      .values({ ...booking, provider_booking_id: data.bookingId, created_at: at })
      .onConflict((oc) => oc.column('provider_booking_id').doUpdateSet(booking))
      .execute();
    await markEventProcessed(tx, 'scheduling', event.id, at);
  });
}
