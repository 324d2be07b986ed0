import type { Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ProviderEventsTable } from '../schema-payments.ts';
import type { EventProvider } from '../../lib/domain.ts';

// Incoming provider events (0008, keyed by provider and id since 0019): stored before acting.

export type ProviderEventRow = Selectable<ProviderEventsTable>;

export interface IncomingEvent {
  readonly provider: EventProvider;
  readonly id: string;
  readonly type: string;
  readonly payload: Record<string, unknown>;
  /** The provider's own time of the event (Unix seconds), when it says. */
  readonly created?: number;
}

/** Stores the event; false when it was stored before (a repeated delivery). */
export async function insertProviderEvent(tx: Tx, event: IncomingEvent, receivedAt: Date): Promise<boolean> {
  const inserted = await tx
    .insertInto('provider_events')
    .values({
      provider: event.provider,
      id: event.id,
      type: event.type.slice(0, 100),
      payload: JSON.stringify(event.payload),
      provider_created_at: event.created === undefined ? null : new Date(event.created * 1000),
      received_at: receivedAt,
    })
    .onConflict((oc) => oc.columns(['provider', 'id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function findProviderEvent(
  tx: Tx,
  provider: EventProvider,
  id: string,
): Promise<ProviderEventRow | undefined> {
  return tx
    .selectFrom('provider_events')
    .selectAll()
    .where('provider', '=', provider)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Acting on the event is done (or handed to its workflow); `error` says why nothing could be done. */
export async function markEventProcessed(
  tx: Tx,
  provider: EventProvider,
  id: string,
  at: Date,
  error: string | null = null,
): Promise<void> {
  await tx
    .updateTable('provider_events')
    .set({ processed_at: at, processing_error: error?.slice(0, 5000) ?? null })
    .where('provider', '=', provider)
    .where('id', '=', id)
    .execute();
}
