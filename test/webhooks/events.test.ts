import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { asSystem } from '../../db/doors.ts';
import { recordWebhookEvent, type WebhookEvent } from '../../db/repositories/webhooks.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { subscribe } from './receiver.ts';

const SECRET = `whsec_${'e'.repeat(43)}`;

describe('webhook events: recorded once per fact, for the endpoints subscribed to their type', () => {
  let business: BusinessFixture;
  const event = (type: WebhookEvent['type'] = 'session.confirmed'): WebhookEvent => {
    const sessionId = randomUUID();
    return {
      organizationId: business.organizationId,
      type,
      object: { sessionId },
      dedupeKey: `${type}:${sessionId}`,
      occurredAt: new Date(),
    };
  };
  const record = (recorded: WebhookEvent) =>
    asSystem(testDatabase(), (tx) => recordWebhookEvent(tx, recorded));
  const eventsOf = (key: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('webhook_events').select('id').where('dedupe_key', '=', key).execute(),
    );

  beforeEach(async () => {
    business = await createBusiness('pro');
  });

  it('an organization without a subscribed endpoint records nothing', async () => {
    await subscribe(business, 'https://hooks.example/a', ['payout.paid'], SECRET);
    const unheard = event('session.confirmed');
    assert.deepEqual(await record(unheard), []);
    assert.deepEqual(await eventsOf(unheard.dedupeKey), []);
  });

  it('one delivery per subscribed endpoint; the same fact again records nothing new and answers the same pending deliveries', async () => {
    await subscribe(business, 'https://hooks.example/a', ['session.confirmed'], SECRET);
    await subscribe(business, 'https://hooks.example/b', ['session.confirmed', 'payout.paid'], SECRET);
    await subscribe(business, 'https://hooks.example/c', ['payout.paid'], SECRET);
    const confirmed = event('session.confirmed');
    const first = await record(confirmed);
    assert.equal(first.length, 2);
    const again = await record({ ...confirmed, occurredAt: new Date(Date.now() + 1000) });
    assert.deepEqual([...again].sort(), [...first].sort());
    assert.equal((await eventsOf(confirmed.dedupeKey)).length, 1);
  });
});
