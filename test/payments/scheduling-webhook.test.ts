import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signWebhook } from '../../api/auth/webhook-signature.ts';
import { asSystem } from '../../db/doors.ts';
import type { Plan } from '../../lib/domain.ts';
import { testDatabase } from '../support/database.ts';
import { business, completedStudy, providerEvent, testerWithAccount } from './fixtures.ts';
import { SCHEDULING_SECRET, startPaymentsHarness, type PaymentsHarness } from './harness.ts';

describe('POST /api/webhooks/scheduling', () => {
  let h: PaymentsHarness;
  before(async () => {
    h = await startPaymentsHarness({ worker: false });
  });
  after(() => h.stop());

  const booking = (jobId: string, bookingId = `bk_${randomUUID()}`) => ({
    id: `sch_${randomUUID()}`,
    type: 'booking.created',
    created: Math.floor(Date.now() / 1000),
    data: {
      bookingId,
      jobId,
      invitee: { email: 'Owner@Example.com', name: 'Olive Owner' },
      consultant: { name: 'Casey Consultant' },
      startsAt: '2030-03-01T10:00:00Z',
      endsAt: '2030-03-01T10:30:00Z',
    },
  });
  const post = (
    body: unknown,
    {
      secret = SCHEDULING_SECRET,
      tamper,
      header,
      in: headerName = 'Scheduling-Webhook-Signature',
    }: { secret?: string; tamper?: boolean; header?: string; in?: string } = {},
  ) => {
    const raw = JSON.stringify(body);
    const signature = header ?? signWebhook(raw, secret);
    return h.request('POST', '/api/webhooks/scheduling', {
      rawBody: tamper ? raw.replace('Casey', 'Mallory') : raw,
      headers: signature ? { [headerName]: signature } : {},
    });
  };
  const studyOf = async (plan: Plan) =>
    (await completedStudy(await business(plan), [await testerWithAccount()])).jobId;
  const bookingsOf = (jobId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('review_call_bookings').selectAll().where('study_id', '=', jobId).execute(),
    );

  it('records a booked review call for a study of a pro-plan organization', async () => {
    const jobId = await studyOf('pro');
    const body = booking(jobId);
    const answer = await post(body);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.data, { received: true });
    const [row] = await bookingsOf(jobId);
    assert.deepEqual(
      [
        row?.provider_booking_id,
        row?.invitee_email,
        row?.consultant_name,
        row?.status,
        row?.provider_event_id,
      ],
      [body.data.bookingId, 'owner@example.com', 'Casey Consultant', 'booked', body.id],
    );
    assert.equal(row?.starts_at.toISOString(), '2030-03-01T10:00:00.000Z');
  });

  it("accepts Calendly's own header (Calendly-Webhook-Signature, the same scheme) and refuses a wrong signature there", async () => {
    const jobId = await studyOf('pro');
    const refused = await post(booking(jobId), {
      in: 'Calendly-Webhook-Signature',
      secret: 'another-secret-0123456789',
    });
    assert.equal(refused.status, 401, refused.text);
    assert.deepEqual(await bookingsOf(jobId), []);
    const answer = await post(booking(jobId), { in: 'Calendly-Webhook-Signature' });
    assert.equal(answer.status, 200, answer.text);
    assert.equal((await bookingsOf(jobId)).length, 1);
  });

  it('a repeated delivery changes nothing: the booking, cancelled meanwhile, stays cancelled', async () => {
    const jobId = await studyOf('pro');
    const body = booking(jobId);
    assert.equal((await post(body)).status, 200);
    const cancel = {
      id: `sch_${randomUUID()}`,
      type: 'booking.cancelled',
      data: { bookingId: body.data.bookingId },
    };
    assert.equal((await post(cancel)).status, 200);
    assert.equal((await bookingsOf(jobId))[0]?.status, 'cancelled');
    const again = await post(body);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, { received: true });
    const rows = await bookingsOf(jobId);
    assert.deepEqual(
      rows.map((row) => row.status),
      ['cancelled'],
    );
  });

  it('a free-plan organization is refused with 403 and nothing is recorded', async () => {
    const jobId = await studyOf('free');
    const body = booking(jobId);
    const answer = await post(body);
    assert.equal(answer.status, 403, answer.text);
    assert.match(answer.body.error ?? '', /pro plan/);
    assert.deepEqual(await bookingsOf(jobId), []);
    assert.equal(await providerEvent('scheduling', body.id), undefined);
  });

  it('an unknown study is 404; a malformed booking is 422 naming the field', async () => {
    assert.equal((await post(booking(randomUUID()))).status, 404);
    const jobId = await studyOf('pro');
    const bad = booking(jobId);
    bad.data.endsAt = '2030-03-01T09:00:00Z';
    const answer = await post(bad);
    assert.equal(answer.status, 422, answer.text);
    assert.match(answer.body.error ?? '', /^data\.endsAt: /);
  });

  const refusals: [string, (body: unknown) => ReturnType<typeof post>][] = [
    ['tampered body', (body) => post(body, { tamper: true })],
    ['wrong secret', (body) => post(body, { secret: 'another-secret-0123456789' })],
    [
      'stale timestamp',
      (body) =>
        post(body, {
          header: signWebhook(JSON.stringify(body), SCHEDULING_SECRET, new Date(Date.now() - 600_000)),
        }),
    ],
    ['missing header', (body) => post(body, { header: '' })],
  ];
  for (const [name, send] of refusals) {
    it(`${name}: 401 and nothing recorded`, async () => {
      const jobId = await studyOf('pro');
      const answer = await send(booking(jobId));
      assert.equal(answer.status, 401, answer.text);
      assert.deepEqual(await bookingsOf(jobId), []);
    });
  }
});
