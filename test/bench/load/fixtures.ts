// Who the load benchmark's requests come from: businesses on each plan (a study each to read), the
// payment provider's signed deliveries, and testers' recording sessions.
import Stripe from 'stripe';
import type { Plan } from '../../../lib/domain.ts';
import { insertStudy } from '../../auth/helpers.ts';
import { recordingSession } from '../../ingestion/fixtures.ts';
import { testDatabase } from '../../support/database.ts';
import { createBusiness } from '../../support/factories.ts';
import { sessionToken } from '../../support/tokens.ts';
import type { LoadRequest } from './drive.ts';

export const WEBHOOK_SECRET = 'whsec_load_benchmark_0123456789abcdef';

export interface BusinessCaller {
  readonly organizationId: string;
  readonly authorization: string;
  readonly studyId: string;
}

export async function businessCallers(plan: Plan, count: number): Promise<BusinessCaller[]> {
  const callers: BusinessCaller[] = [];
  for (let i = 0; i < count; i += 1) {
    const business = await createBusiness(plan);
    callers.push({
      organizationId: business.organizationId,
      authorization: `Bearer ${await sessionToken(business.claims, new Date(), 3600)}`,
      studyId: await insertStudy(business.organizationId),
    });
  }
  return callers;
}

/** A caller's reads: its study, then the first page of its studies, in turn. */
export function readRequest(caller: BusinessCaller, index: number): LoadRequest {
  return {
    method: 'GET',
    path: index % 2 ? '/api/jobs?limit=20' : `/api/jobs/${caller.studyId}`,
    headers: { authorization: caller.authorization },
  };
}

/** A study created: validation, the insert through the RLS door and its workflow's start. */
export function createStudyRequest(body: string) {
  return (caller: BusinessCaller): LoadRequest => ({
    method: 'POST',
    path: '/api/jobs',
    headers: { authorization: caller.authorization },
    body,
  });
}

const signer = new Stripe('sk_test_load_signer');

/**
 * A signed `checkout.session.completed` for a checkout the service never created, with an event
 * id of its own: recorded, acted on by no one (the route's whole path but the follow-up workflow).
 */
export function webhookDelivery(run: string) {
  return (_sender: unknown, index: number): LoadRequest => {
    const payload = JSON.stringify({
      id: `evt_load_${run}_${index}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      data: {
        object: {
          id: `cs_load_${run}_${index}`,
          object: 'checkout.session',
          payment_status: 'paid',
          amount_total: 25000,
          currency: 'eur',
          metadata: {},
        },
      },
    });
    return {
      method: 'POST',
      path: '/api/webhooks/payments',
      headers: {
        'payment-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      body: payload,
    };
  };
}

export const recordedEvents = async (run: string) =>
  Number(
    (
      await testDatabase()
        .selectFrom('provider_events')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('id', 'like', `evt_load_${run}_%`)
        .executeTakeFirstOrThrow()
    ).count,
  );

export interface RecordingLane {
  readonly sessionId: string;
  readonly testToken: string;
}

export async function recordingLanes(count: number): Promise<RecordingLane[]> {
  const lanes: RecordingLane[] = [];
  for (let i = 0; i < count; i += 1) {
    const { sessionId, testToken } = await recordingSession();
    lanes.push({ sessionId, testToken });
  }
  return lanes;
}

export const EVENTS_PER_BATCH = 20;

/**
 * Connection `connection` (of `connections`) sends its `index`th batch for session
 * `(index * connections + connection) % lanes`, so every session gets a batch in turn; the
 * events' times advance with that number, so no batch repeats another and every item must be stored.
 */
export function eventBatchRequest(lanes: readonly RecordingLane[], connections: number) {
  const start = Date.now() - 3_600_000;
  return (connection: number, index: number): LoadRequest => {
    const sequence = index * connections + connection;
    const lane = lanes[sequence % lanes.length]!;
    const batch = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
      eventType: 'click',
      targetSelector: `#item-${i}`,
      timestamp: new Date(start + sequence * EVENTS_PER_BATCH + i).toISOString(),
      x: i * 10,
      y: i * 5,
      viewport: { width: 1280, height: 800 },
    }));
    return {
      method: 'POST',
      path: `/api/sessions/${lane.sessionId}/events`,
      headers: { 'x-test-token': lane.testToken },
      body: JSON.stringify({ batch }),
    };
  };
}

export const storedEvents = async (lanes: readonly RecordingLane[]) =>
  Number(
    (
      await testDatabase()
        .selectFrom('session_events')
        .select((eb) => eb.fn.countAll().as('count'))
        .where(
          'session_id',
          'in',
          lanes.map((lane) => lane.sessionId),
        )
        .executeTakeFirstOrThrow()
    ).count,
  );

/** A client address of its own for each anonymous caller (the API trusts one proxy hop here). */
export function anonymousCallers(count: number): string[] {
  const block = Math.floor(Math.random() * 250) + 1;
  return Array.from({ length: count }, (_, i) => `10.77.${block}.${i + 1}`);
}
