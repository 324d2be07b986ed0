import { asSystem } from '../../db/doors.ts';
import { cancelBooking, upsertBooking } from '../../db/repositories/bookings.ts';
import { studyWithPlan } from '../../db/repositories/organizations.ts';
import { insertProviderEvent, markEventProcessed } from '../../db/repositories/provider-events.ts';
import { organizationOfStudy } from '../../db/repositories/studies.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { CommandContext } from '../context.ts';
import type { SchedulingEvent } from './provider-events.schema.ts';

/**
 * Records a scheduling event. A booking is for a study of an organization on the pro plan (review
 * calls are part of paid plans): an unknown study is 404 and a free plan 403, and such an event is
 * not recorded, so every delivery of it is refused alike. A recorded event's repeat changes nothing.
 */
export async function recordSchedulingEvent(
  deps: Pick<CommandContext, 'db' | 'now'>,
  event: SchedulingEvent,
): Promise<void> {
  const at = deps.now();
  await asSystem(deps.db, async (tx) => {
    if (event.type === 'booking.created') {
      const study = await studyWithPlan(tx, event.data.jobId);
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
      const cancelled = await cancelBooking(tx, event.data.bookingId, at);
      await markEventProcessed(tx, 'scheduling', event.id, at, cancelled ? null : 'unknown booking');
      return;
    }
    const { data } = event;
    const booking = {
      organization_id: await organizationOfStudy(tx, data.jobId),
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
    await upsertBooking(tx, data.bookingId, booking, at);
    await markEventProcessed(tx, 'scheduling', event.id, at);
  });
}
