import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import type { EmailMessage, EmailSender } from '../../clients/email.ts';
import { startWebhookDeliveries } from '../../clients/webhook-deliveries.ts';
import { asSystem } from '../../db/doors.ts';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import type { WebhookEventType } from '../../lib/domain.ts';
import { webhookDeliveryWorkflowId } from '../../workflows/messages/webhook-delivery.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness, createMembers, type BusinessFixture } from '../support/factories.ts';
import { timeSkippingEnvironment, workflowBundle } from '../support/temporal.ts';
import { startReceiver, subscribe, type Receiver } from './receiver.ts';
import { verifyWebhook } from './verify-example.ts';

const QUEUE = `webhook-delivery-test-${process.pid}`;
const SECRET = `whsec_${'k'.repeat(43)}`;
const ATTEMPT_TIMEOUT_MS = 500;

const deliveryRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );
const endpointRow = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );

// The delivery workflow on the time-skipping server: its backoff of minutes to hours (three days
// in all) passes without waiting, while every attempt is a real POST to a local receiver.
describe('outgoing webhooks: a delivery is signed, retried with backoff for three days, and ends the endpoint that never answers', function () {
  this.timeout(60_000);
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  let receiver: Receiver;
  let business: BusinessFixture;
  const mailed: EmailMessage[] = [];
  const email: EmailSender = {
    destination: 'test',
    send: (message) => {
      mailed.push(message);
      return Promise.resolve();
    },
    close() {},
  };

  before(async () => {
    env = await timeSkippingEnvironment();
    worker = await createServiceWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue: QUEUE,
      workflowBundle: await workflowBundle(),
      db: serviceDatabase(),
      email,
      webhooks: { urlPolicy: { allowPrivate: true }, attemptTimeoutMs: ATTEMPT_TIMEOUT_MS },
    });
    running = worker.run();
    receiver = await startReceiver();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await receiver?.stop();
    await env?.teardown();
  });
  beforeEach(async () => {
    business = await createBusiness('pro');
    receiver.received.length = 0;
    receiver.answer(() => ({ status: 200 }));
  });

  async function endpoint(events: WebhookEventType[] = ['study.completed']): Promise<string> {
    return subscribe(business, receiver.url, events, SECRET);
  }

  /** Records a study.completed event of the suite's organization and runs its deliveries to their end. */
  async function deliver(queue = QUEUE): Promise<{ deliveryIds: string[]; outcomes: unknown[] }> {
    const studyId = randomUUID();
    const deliveryIds = await asSystem(testDatabase(), (tx) =>
      recordWebhookEvent(tx, {
        organizationId: business.organizationId,
        type: 'study.completed',
        object: { studyId, status: 'completed' },
        dedupeKey: `study.completed:${studyId}`,
        occurredAt: new Date(),
      }),
    );
    await startWebhookDeliveries(env.client, queue, deliveryIds);
    const outcomes = await Promise.all(
      deliveryIds.map((id) => env.client.workflow.getHandle(webhookDeliveryWorkflowId(id)).result()),
    );
    return { deliveryIds, outcomes };
  }

  it('a 2xx ends it at once: the body in the provider shape, the event id in Webhook-Id, the signature verifies with the documented example', async () => {
    const endpointId = await endpoint();
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['delivered']);
    const [request] = receiver.received;
    assert.ok(request);
    const event = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('webhook_events')
        .selectAll()
        .where('organization_id', '=', business.organizationId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(request.headers['webhook-id'], event.id);
    assert.equal(request.headers['webhook-attempt'], '1');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.body.id, event.id);
    assert.equal(request.body.type, 'study.completed');
    assert.equal(request.body.organizationId, business.organizationId);
    assert.equal(request.body.created, Math.floor(event.created_at.getTime() / 1000));
    assert.deepEqual(request.body.data.object, event.object);
    assert.ok(verifyWebhook(request.rawBody, String(request.headers['webhook-signature']), SECRET));
    assert.ok(!verifyWebhook(request.rawBody, String(request.headers['webhook-signature']), `${SECRET}x`));
    const tampered = Buffer.from(request.rawBody.toString().replace('study.completed', 'study.activated'));
    assert.ok(!verifyWebhook(tampered, String(request.headers['webhook-signature']), SECRET));
    const row = await deliveryRow(deliveryIds[0]!);
    assert.equal(row.status, 'delivered');
    assert.equal(row.attempts, 1);
    assert.equal(row.last_response_code, 200);
    assert.equal(row.next_attempt_at, null);
    assert.equal((await endpointRow(endpointId)).status, 'enabled');
  });

  it('a receiver down for a while gets the same event again (same id, same body, a fresh signature) until it answers', async () => {
    await endpoint();
    receiver.answer((n) => (n <= 3 ? { status: 503 } : { status: 204 }));
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['delivered']);
    assert.equal(receiver.received.length, 4);
    assert.equal(new Set(receiver.received.map((request) => request.headers['webhook-id'])).size, 1);
    assert.equal(new Set(receiver.received.map((request) => request.rawBody.toString())).size, 1);
    assert.deepEqual(
      receiver.received.map((request) => request.headers['webhook-attempt']),
      ['1', '2', '3', '4'],
    );
    for (const request of receiver.received) {
      assert.ok(verifyWebhook(request.rawBody, String(request.headers['webhook-signature']), SECRET));
    }
    const row = await deliveryRow(deliveryIds[0]!);
    assert.equal(row.status, 'delivered');
    assert.equal(row.attempts, 4);
    assert.equal(row.last_response_code, 204);
  });

  it('a receiver slower than the attempt timeout counts as failed and is tried again', async () => {
    await endpoint();
    receiver.answer((n) => (n === 1 ? { status: 200, delayMs: ATTEMPT_TIMEOUT_MS * 4 } : { status: 200 }));
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['delivered']);
    assert.equal(receiver.received.length, 2);
    const row = await deliveryRow(deliveryIds[0]!);
    assert.equal(row.attempts, 2);
    assert.equal(row.last_response_code, 200);
  });

  it('a receiver that never answers 2xx: 15 attempts over three days, then the delivery fails, the endpoint is disabled and each owner is emailed once', async () => {
    await createMembers(business.organizationId, 1, 'owner');
    await createMembers(business.organizationId, 1, 'member');
    const endpointId = await endpoint();
    receiver.answer(() => ({ status: 500 }));
    mailed.length = 0;
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['failed']);
    // 1 + six growing waits (1, 3, 9, 27, 81, 243 min) + eight of 8 h: the ninth would start past 72 h.
    assert.equal(receiver.received.length, 15);
    const row = await deliveryRow(deliveryIds[0]!);
    assert.equal(row.status, 'failed');
    assert.equal(row.attempts, 15);
    assert.equal(row.last_response_code, 500);
    const disabled = await endpointRow(endpointId);
    assert.equal(disabled.status, 'disabled');
    assert.equal(disabled.disabled_reason, 'failing');
    const owners = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('organization_memberships as m')
        .innerJoin('users as u', 'u.id', 'm.user_id')
        .select('u.email')
        .where('m.organization_id', '=', business.organizationId)
        .where('m.member_role', '=', 'owner')
        .execute(),
    );
    assert.deepEqual(
      mailed.map((message) => String(message.to)).sort(),
      owners.map((owner) => owner.email).sort(),
    );
    assert.match(mailed[0]!.text, /disabled/);
    assert.match(mailed[0]!.text, new RegExp(receiver.url.replace(/[.:/]/g, '\\$&')));

    // A disabled endpoint is sent nothing new.
    receiver.received.length = 0;
    assert.deepEqual((await deliver()).deliveryIds, []);
  });

  it('an endpoint that takes other deliveries is not disabled when one event fails for three days', async () => {
    const endpointId = await endpoint();
    const [refused, taken] = [randomUUID(), randomUUID()];
    const recorded = await asSystem(testDatabase(), async (tx) => {
      const ids: string[] = [];
      for (const studyId of [refused, taken]) {
        ids.push(
          ...(await recordWebhookEvent(tx, {
            organizationId: business.organizationId,
            type: 'study.completed',
            object: { studyId, status: 'completed' },
            dedupeKey: `study.completed:${studyId}`,
            occurredAt: new Date(),
          })),
        );
      }
      return ids;
    });
    receiver.answer((_n, body) => ({ status: body.data.object.studyId === refused ? 422 : 200 }));
    mailed.length = 0;
    await startWebhookDeliveries(env.client, QUEUE, recorded);
    // One result awaited at a time: the time-skipping server skips only while a result is awaited.
    const handle = (id: string) => env.client.workflow.getHandle(webhookDeliveryWorkflowId(id));
    assert.equal(await handle(recorded[1]!).result(), 'delivered');
    assert.equal(await handle(recorded[0]!).result(), 'failed');
    assert.equal((await deliveryRow(recorded[0]!)).attempts, 15);
    assert.equal((await endpointRow(endpointId)).status, 'enabled');
    assert.deepEqual(mailed, []);
  });

  it('an endpoint that no longer takes the event type: the waiting delivery is cancelled', async () => {
    const endpointId = await endpoint();
    receiver.answer((n) => {
      if (n === 1) {
        void asSystem(testDatabase(), (tx) =>
          tx
            .updateTable('webhook_endpoints')
            .set({ events: sql<['payout.paid']>`array['payout.paid']` })
            .where('id', '=', endpointId)
            .execute(),
        );
      }
      return { status: 500, delayMs: n === 1 ? ATTEMPT_TIMEOUT_MS / 2 : 0 };
    });
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['cancelled']);
    assert.equal(receiver.received.length, 1);
    assert.equal((await deliveryRow(deliveryIds[0]!)).status, 'cancelled');
  });

  it("under production's URL policy a loopback endpoint is never reached: every attempt is blocked, and the log says why", async () => {
    const guarded = await createServiceWorker({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue: `${QUEUE}-guarded`,
      workflowBundle: await workflowBundle(),
      db: serviceDatabase(),
      email,
      webhooks: { urlPolicy: { allowPrivate: false }, attemptTimeoutMs: ATTEMPT_TIMEOUT_MS },
    });
    await endpoint();
    const { deliveryIds, outcomes } = await guarded.runUntil(deliver(`${QUEUE}-guarded`));
    assert.deepEqual(outcomes, ['failed']);
    assert.equal(receiver.received.length, 0);
    const row = await deliveryRow(deliveryIds[0]!);
    assert.equal(row.attempts, 15);
    assert.equal(row.last_response_code, null);
    assert.match(row.last_error ?? '', /publicly accessible/);
  });

  it('an endpoint disabled by its owner while a delivery waits: the delivery is cancelled at its next attempt', async () => {
    const endpointId = await endpoint();
    receiver.answer((n) => {
      if (n === 2) {
        void asSystem(testDatabase(), (tx) =>
          tx
            .updateTable('webhook_endpoints')
            .set({ status: 'disabled', disabled_reason: 'owner', disabled_at: new Date() })
            .where('id', '=', endpointId)
            .execute(),
        );
      }
      // Answered once the change is committed (a few ms), well within the attempt's timeout.
      return { status: 500, delayMs: n === 2 ? ATTEMPT_TIMEOUT_MS / 2 : 0 };
    });
    const { deliveryIds, outcomes } = await deliver();
    assert.deepEqual(outcomes, ['cancelled']);
    assert.equal(receiver.received.length, 2);
    assert.equal((await deliveryRow(deliveryIds[0]!)).status, 'cancelled');
  });
});
