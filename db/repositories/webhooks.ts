import { sql, type Selectable } from 'kysely';
import type { WebhookEventType } from '../../lib/domain.ts';
import type { Tx } from '../doors.ts';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from '../schema-webhooks.ts';

// Organizations' outgoing webhooks (0044): endpoints, events and their deliveries.

/** An endpoint as its owners may read it: everything but the secret (no column grant covers it). */
export const ENDPOINT_COLUMNS = [
  'id',
  'organization_id',
  'url',
  'description',
  'events',
  'status',
  'disabled_reason',
  'disabled_at',
  'created_by',
  'created_at',
  'updated_at',
] as const;

export type WebhookEndpointRow = Pick<Selectable<WebhookEndpointsTable>, (typeof ENDPOINT_COLUMNS)[number]>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable> & { event_type: WebhookEventType };

interface NewEndpoint {
  readonly organizationId: string;
  readonly createdBy: string;
  readonly url: string;
  readonly description: string;
  readonly events: readonly WebhookEventType[];
  readonly secret: string;
}

/** Serialises the organization's endpoint registrations until the transaction ends (its count is checked first). */
export async function lockEndpointRegistrations(tx: Tx, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`webhook-endpoints:${organizationId}`}, 0))`.execute(
    tx,
  );
}

export function insertWebhookEndpoint(tx: Tx, endpoint: NewEndpoint): Promise<WebhookEndpointRow> {
  return tx
    .insertInto('webhook_endpoints')
    .values({
      organization_id: endpoint.organizationId,
      created_by: endpoint.createdBy,
      url: endpoint.url,
      description: endpoint.description,
      events: sql<WebhookEventType[]>`${[...endpoint.events]}::text[]`,
      secret: endpoint.secret,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One page of the organization's endpoints, newest first, and how many it has in all. */
export async function listWebhookEndpoints(
  tx: Tx,
  organizationId: string,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ rows: WebhookEndpointRow[]; total: number }> {
  const ofOrganization = tx.selectFrom('webhook_endpoints').where('organization_id', '=', organizationId);
  const rows = await ofOrganization
    .select(ENDPOINT_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { total } = await ofOrganization
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total) };
}

export function findWebhookEndpoint(
  tx: Tx,
  id: string,
  organizationId: string,
): Promise<WebhookEndpointRow | undefined> {
  return tx
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export interface EndpointChange {
  readonly url?: string;
  readonly description?: string;
  readonly events?: readonly WebhookEventType[];
  /** true: enabled again; false: disabled by its owner. */
  readonly enabled?: boolean;
}

/** Applies an owner's change; undefined when the organization has no such endpoint. */
export function updateWebhookEndpoint(
  tx: Tx,
  id: string,
  organizationId: string,
  change: EndpointChange,
  now: Date,
): Promise<WebhookEndpointRow | undefined> {
  return tx
    .updateTable('webhook_endpoints')
    .set({
      updated_at: now,
      ...(change.url === undefined ? {} : { url: change.url }),
      ...(change.description === undefined ? {} : { description: change.description }),
      ...(change.events === undefined
        ? {}
        : { events: sql<WebhookEventType[]>`${[...change.events]}::text[]` }),
      ...(change.enabled === undefined
        ? {}
        : change.enabled
          ? { status: 'enabled', disabled_reason: null, disabled_at: null }
          : { status: 'disabled', disabled_reason: 'owner', disabled_at: now }),
    })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

export async function deleteWebhookEndpoint(tx: Tx, id: string, organizationId: string): Promise<boolean> {
  const deleted = await tx
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

export interface WebhookEvent {
  readonly organizationId: string;
  readonly type: WebhookEventType;
  /** What the body carries under `data.object`. */
  readonly object: Record<string, unknown>;
  /** What happened, once: the same key again (a retried activity, a repeated provider event) records nothing new. */
  readonly dedupeKey: string;
  readonly occurredAt: Date;
}

/**
 * Records an event and one pending delivery per enabled endpoint of its organization subscribed
 * to its type, in the caller's transaction (the system door: endpoints' secrets and other
 * organizations are beyond a caller's). Answers the pending deliveries of the event, those
 * recorded before under the same key included, so a retried caller can still start them. An
 * organization with no such endpoint records nothing, in one query: the path of most changes.
 */
export async function recordWebhookEvent(tx: Tx, event: WebhookEvent): Promise<string[]> {
  const subscribed = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('organization_id', '=', event.organizationId)
    .where('status', '=', 'enabled')
    .where(sql<boolean>`${event.type} = any(events)`)
    // Held until the deliveries reference them: an owner deleting one meanwhile waits, rather than
    // failing the insert and with it the change this event rides on.
    .forKeyShare()
    .execute();
  if (!subscribed.length) return [];
  const inserted = await tx
    .insertInto('webhook_events')
    .values({
      organization_id: event.organizationId,
      type: event.type,
      object: JSON.stringify(event.object),
      dedupe_key: event.dedupeKey,
      created_at: event.occurredAt,
    })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  // Recorded before under this key (a retried caller, or another transaction, whose commit the
  // insert waited for): its deliveries, started again harmlessly.
  if (!inserted) return pendingDeliveriesOfKey(tx, event.dedupeKey);
  const deliveries = await tx
    .insertInto('webhook_deliveries')
    .values(
      subscribed.map((endpoint) => ({
        event_id: inserted.id,
        endpoint_id: endpoint.id,
        organization_id: event.organizationId,
        created_at: event.occurredAt,
      })),
    )
    .returning('id')
    .execute();
  return deliveries.map((delivery) => delivery.id);
}

/** The pending deliveries of the event recorded under `dedupeKey` (none when there is no such event). */
export async function pendingDeliveriesOfKey(tx: Tx, dedupeKey: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .select('d.id')
    .where('e.dedupe_key', '=', dedupeKey)
    .where('d.status', '=', 'pending')
    .execute();
  return rows.map((row) => row.id);
}

/** Everything one attempt needs: the delivery, its event and its endpoint (secret included). */
export function deliveryToAttempt(tx: Tx, deliveryId: string) {
  return tx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as p', 'p.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.status',
      'd.attempts',
      'd.endpoint_id',
      'd.organization_id',
      'd.created_at',
      'e.id as event_id',
      'e.type',
      'e.object',
      'e.created_at as event_created_at',
      'p.url',
      'p.secret',
      'p.status as endpoint_status',
      'p.events as endpoint_events',
    ])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

export interface AttemptOutcome {
  readonly delivered: boolean;
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly at: Date;
  readonly nextAttemptAt: Date | null;
}

export async function recordDeliveryAttempt(
  tx: Tx,
  deliveryId: string,
  outcome: AttemptOutcome,
): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_response_code: outcome.responseCode,
      last_error: outcome.error?.slice(0, 500) ?? null,
      last_attempt_at: outcome.at,
      next_attempt_at: outcome.nextAttemptAt,
      ...(outcome.delivered ? { status: 'delivered' as const, delivered_at: outcome.at } : {}),
    }))
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .execute();
}

/** Ends a pending delivery without a 2xx: `failed` (its schedule ran out) or `cancelled`. */
export async function closeDelivery(
  tx: Tx,
  deliveryId: string,
  status: 'failed' | 'cancelled',
): Promise<boolean> {
  const closed = await tx
    .updateTable('webhook_deliveries')
    .set({ status, next_attempt_at: null })
    .where('id', '=', deliveryId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return closed.numUpdatedRows > 0n;
}

/**
 * Disables an enabled endpoint that has not taken a single delivery since `failingSince` (when a
 * delivery whose schedule ran out was recorded): the run of failures the docs name. The
 * endpoint when it was disabled by this call, else undefined (already off, or it took one).
 */
export function disableFailingEndpoint(
  tx: Tx,
  endpointId: string,
  failingSince: Date,
  now: Date,
): Promise<WebhookEndpointRow | undefined> {
  return tx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: 'failing', disabled_at: now, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'enabled')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('webhook_deliveries')
            .select('id')
            .whereRef('endpoint_id', '=', 'webhook_endpoints.id')
            .where('delivered_at', '>=', failingSince),
        ),
      ),
    )
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/** One page of an endpoint's deliveries, newest first, with their event's type. */
export async function listWebhookDeliveries(
  tx: Tx,
  endpointId: string,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ rows: WebhookDeliveryRow[]; total: number }> {
  const ofEndpoint = tx.selectFrom('webhook_deliveries as d').where('d.endpoint_id', '=', endpointId);
  const rows = await ofEndpoint
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('d')
    .select('e.type as event_type')
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { total } = await ofEndpoint
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total) };
}

/** Deliveries recorded before `before` and never tried, oldest first: the reconciler starts their workflows. */
export async function untriedDeliveries(tx: Tx, before: Date, limit: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** The addresses of the organization's owners, who hear when an endpoint is disabled. */
export function organizationOwners(tx: Tx, organizationId: string) {
  return tx
    .selectFrom('organization_memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email'])
    .where('m.organization_id', '=', organizationId)
    .where('m.member_role', '=', 'owner')
    .where('u.status', '<>', 'suspended')
    .execute();
}
