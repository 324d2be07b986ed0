import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/common';
import { asSystem, asUser } from '../../db/doors.ts';
import { paymentEventWorkflowId } from '../../workflows/messages/payment-events.ts';
import { studyStatusQuery, studyWorkflowId } from '../../workflows/messages/study.ts';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';
import {
  accountUpdated,
  addPayoutAccount,
  draftStudy,
  event,
  eventually,
  payoutAccountOf,
  providerEvent,
  studyRow,
  studyValues,
  tester,
  type Business,
} from './fixtures.ts';
import {
  CONNECT_WEBHOOK_SECRET,
  startPaymentsHarnessWithOwner,
  WEBHOOK_SECRET,
  type PaymentsHarness,
} from './harness.ts';

interface Checkout {
  checkoutSessionId: string;
  amountTotal: number;
  currency: string;
}

describe('POST /api/webhooks/payments', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let h: PaymentsHarness;
  let owner: Business;
  before(async () => ({ h, owner } = await startPaymentsHarnessWithOwner()));
  after(() => h.stop());

  /**
   * A draft study (created through the API unless given) with an open checkout session, and the
   * event the provider sends once it is paid.
   */
  async function paidCheckout(draftJobId?: string) {
    const jobId = draftJobId ?? (await draftStudy(h, owner));
    const answer = await h.request('POST', '/api/billing/checkout', { token: owner.token, body: { jobId } });
    assert.equal(answer.status, 200, answer.text);
    const checkout = answer.body.data as Checkout;
    const completed = event('checkout.session.completed', {
      id: checkout.checkoutSessionId,
      object: 'checkout.session',
      amount_total: checkout.amountTotal,
      currency: checkout.currency.toLowerCase(),
      client_reference_id: jobId,
      payment_status: 'paid',
      status: 'complete',
    });
    return { jobId, checkout, completed };
  }

  const commissionedMails = () =>
    h.mail.messages.filter(
      (mail) =>
        mail.subject?.startsWith('Study commissioned') &&
        mail.text?.includes('is now active') &&
        JSON.stringify(mail.to).includes(owner.email),
    );

  describe('signatures (the SDK scheme over the raw body)', () => {
    const unknownEvent = () => event('customer.created', { id: 'cus_1', object: 'customer' });

    for (const header of ['Payment-Signature', 'Stripe-Signature'] as const) {
      it(`a correctly signed event in ${header} is accepted byte for byte: the body is not parsed before it is verified`, async () => {
        const body = unknownEvent();
        // Whitespace a parser would drop: re-serialised, the signature would no longer match.
        const answer = await h.postPaymentEvent(JSON.stringify(body, null, 3), { header });
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.body.data, { received: true });
        assert.ok(await providerEvent('payments', body.id));
      });

      const refusals: [
        string,
        (body: ReturnType<typeof unknownEvent>) => Promise<{ status: number; text: string }>,
      ][] = [
        [
          'tampered body',
          (body) => h.postPaymentEvent(body, { header, tamper: (raw) => raw.replace('cus_1', 'cus_2') }),
        ],
        ['wrong secret', (body) => h.postPaymentEvent(body, { header, secret: 'whsec_someone_else' })],
        [
          'stale timestamp (10 minutes old)',
          (body) => h.postPaymentEvent(body, { header, timestamp: Math.floor(Date.now() / 1000) - 600 }),
        ],
      ];
      for (const [name, send] of refusals) {
        it(`${header}, ${name}: 401 in the envelope, nothing recorded`, async () => {
          const body = unknownEvent();
          const answer = await send(body);
          assert.equal(answer.status, 401, answer.text);
          assert.match((JSON.parse(answer.text) as { error: string }).error, /Webhook signature/);
          assert.equal(await providerEvent('payments', body.id), undefined);
        });
      }
    }

    it('no signature header at all: 401 in the envelope, nothing recorded', async () => {
      const body = unknownEvent();
      const answer = await h.postPaymentEvent(body, { header: null });
      assert.equal(answer.status, 401, answer.text);
      assert.match((JSON.parse(answer.text) as { error: string }).error, /Webhook signature missing/);
      assert.equal(await providerEvent('payments', body.id), undefined);
    });

    it('a verified delivery counts against the webhook rate limit of 1,000 events per minute', async () => {
      const answer = await h.postPaymentEvent(unknownEvent());
      assert.equal(answer.headers.get('RateLimit-Limit'), '1000');
    });

    it("the platform's and the Connect endpoint's secrets are both accepted, each for its events; a third is refused", async () => {
      const person = await tester();
      await addPayoutAccount(person.sub, 'acct_connect_1', { verified: false });
      const accountEvent = accountUpdated('acct_connect_1', {
        payouts_enabled: true,
        details_submitted: true,
      });
      const viaConnect = await h.postPaymentEvent(accountEvent, { secret: CONNECT_WEBHOOK_SECRET });
      assert.equal(viaConnect.status, 200, viaConnect.text);
      const account = await payoutAccountOf(person.sub);
      assert.equal(account.payouts_enabled, true, 'the account event was applied');

      const { jobId, completed } = await paidCheckout();
      const viaPlatform = await h.postPaymentEvent(completed, { secret: WEBHOOK_SECRET });
      assert.equal(viaPlatform.status, 200, viaPlatform.text);
      assert.ok((await studyRow(jobId)).paid_at, 'the platform event was applied');

      const third = unknownEvent();
      const refused = await h.postPaymentEvent(third, { secret: 'whsec_a_third_endpoint_0123456789' });
      assert.equal(refused.status, 401, refused.text);
      assert.equal(await providerEvent('payments', third.id), undefined);
    });

    it('a signed delivery that is no readable event is recorded and answered 200, so the provider stops retrying', async () => {
      const envelope = { id: 'evt_no_created_1', type: 'checkout.session.completed', data: { object: {} } };
      const answer = await h.postPaymentEvent(envelope);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.body.data, { received: true });
      const recorded = await providerEvent('payments', 'evt_no_created_1');
      assert.ok(recorded?.processed_at, 'recorded and settled');
      assert.match(recorded.processing_error ?? '', /created/);
      assert.equal((await h.postPaymentEvent(envelope)).status, 200, 'its repeat too');

      const notJson = await h.postPaymentEvent('this is not JSON');
      assert.equal(notJson.status, 200, notJson.text);
      const unreadable = await asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('provider_events')
          .selectAll()
          .where('provider', '=', 'payments')
          .where('type', '=', 'unreadable')
          .execute(),
      );
      assert.ok(unreadable.some((row) => /not JSON/.test(row.processing_error ?? '')));
      // Unsigned, the same body is still refused: only a verified delivery is recorded.
      assert.equal((await h.postPaymentEvent('this is not JSON', { header: null })).status, 401);
    });
  });

  it('checkout.session.completed: the study is paid, its workflow makes it active, and the business gets "study commissioned"', async () => {
    const { jobId, completed } = await paidCheckout();
    const answer = await h.postPaymentEvent(completed);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.data, { received: true });

    const recorded = await providerEvent('payments', completed.id);
    assert.ok(
      (await studyRow(jobId)).paid_at,
      `paid_at set (event: ${recorded?.processing_error ?? 'no note'})`,
    );
    const study = h.temporal.client.workflow.getHandle(studyWorkflowId(jobId));
    await eventually(async () => (await study.query(studyStatusQuery)) === 'active', 'study workflow active');
    await eventually(async () => (await studyRow(jobId)).status === 'active', 'study row active');
    const mail = await h.mail.waitFor(owner.email);
    assert.match(mail.subject ?? '', /^Study commissioned: /);
    assert.match(mail.text ?? '', /100\.00 EUR/);
  });

  it('a paid checkout of a draft study that has no workflow starts it, and the study becomes active', async () => {
    // As the seed writes a study, or as a create leaves it when the start after its commit failed.
    const { jobId, completed } = await paidCheckout(await insertStudy(owner.organizationId));
    const study = h.temporal.client.workflow.getHandle(studyWorkflowId(jobId));
    await assert.rejects(study.describe(), WorkflowNotFoundError);

    assert.equal((await h.postPaymentEvent(completed)).status, 200);
    await eventually(async () => (await studyRow(jobId)).status === 'active', 'study row active');
    assert.equal(await study.query(studyStatusQuery), 'active');
  });

  it('the same event delivered twice: 200 both times, one effect', async () => {
    const { jobId, checkout, completed } = await paidCheckout();
    assert.equal((await h.postPaymentEvent(completed)).status, 200);
    await h.temporal.client.workflow.getHandle(paymentEventWorkflowId(completed.id)).result();
    const before = await studyRow(jobId);
    const mailsBefore = commissionedMails().length;

    const again = await h.postPaymentEvent(completed);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body.data, { received: true });
    const after = await studyRow(jobId);
    assert.deepEqual([after.paid_at, after.updated_at], [before.paid_at, before.updated_at]);
    const rows = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('checkout_sessions')
        .select(['completed_at'])
        .where('id', '=', checkout.checkoutSessionId)
        .execute(),
    );
    assert.equal(rows.length, 1);
    const events = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('provider_events').select('id').where('id', '=', completed.id).execute(),
    );
    assert.equal(events.length, 1);
    // The follow-up ran once: its workflow id is taken, and no second mail was sent.
    const { status } = await h.temporal.client.workflow
      .getHandle(paymentEventWorkflowId(completed.id))
      .describe();
    assert.equal(status.name, 'COMPLETED');
    assert.equal(commissionedMails().length, mailsBefore);
  });

  it('a paid checkout the service did not create, or for another amount, changes nothing', async () => {
    const { jobId, completed } = await paidCheckout();
    const cheaper = { ...completed, data: { object: { ...completed.data.object, amount_total: 1 } } };
    assert.equal((await h.postPaymentEvent(cheaper)).status, 200);
    assert.equal((await studyRow(jobId)).paid_at, null);
    assert.match(
      (await providerEvent('payments', completed.id))?.processing_error ?? '',
      /expected 10000 EUR/,
    );

    const foreign = event('checkout.session.completed', { ...completed.data.object, id: 'cs_not_ours' });
    assert.equal((await h.postPaymentEvent(foreign)).status, 200);
    assert.match(
      (await providerEvent('payments', foreign.id))?.processing_error ?? '',
      /unknown checkout session/,
    );
  });

  it('a checkout completed with its payment still pending changes nothing; checkout.session.async_payment_succeeded then pays the study', async () => {
    // Delayed payment methods complete the session before the money arrives.
    const { jobId, completed } = await paidCheckout();
    const pending = {
      ...completed,
      data: { object: { ...completed.data.object, payment_status: 'unpaid' } },
    };
    assert.equal((await h.postPaymentEvent(pending)).status, 200);
    assert.equal((await studyRow(jobId)).paid_at, null);
    assert.match((await providerEvent('payments', pending.id))?.processing_error ?? '', /payment unpaid/);

    const succeeded = event('checkout.session.async_payment_succeeded', completed.data.object);
    assert.equal((await h.postPaymentEvent(succeeded)).status, 200);
    assert.ok((await studyRow(jobId)).paid_at, 'paid once the payment succeeded');
    await eventually(async () => (await studyRow(jobId)).status === 'active', 'study row active');
  });

  it('account.updated stores charges_enabled, payouts_enabled, details_submitted and the requirement lists', async () => {
    const person = await tester();
    await addPayoutAccount(person.sub, 'acct_webhook_1', { verified: false });
    const updated = accountUpdated('acct_webhook_1', {
      charges_enabled: true,
      payouts_enabled: false,
      details_submitted: true,
      requirements: { currently_due: ['external_account'], eventually_due: ['individual.id_number'] },
    });
    assert.equal((await h.postPaymentEvent(updated)).status, 200);
    const account = await payoutAccountOf(person.sub);
    assert.deepEqual(
      {
        charges: account.charges_enabled,
        payouts: account.payouts_enabled,
        details: account.details_submitted,
        now: account.requirements_currently_due,
        later: account.requirements_eventually_due,
        status: account.status,
      },
      {
        charges: true,
        payouts: false,
        details: true,
        now: ['external_account'],
        later: ['individual.id_number'],
        status: 'restricted',
      },
    );
  });

  it('account.updated deliveries out of order: an event older than the last one applied changes nothing', async () => {
    const person = await tester();
    await addPayoutAccount(person.sub, 'acct_order_1', { verified: false });
    const at = (created: number, payoutsEnabled: boolean, due: string[]) => ({
      ...accountUpdated('acct_order_1', {
        charges_enabled: true,
        payouts_enabled: payoutsEnabled,
        details_submitted: true,
        requirements: { currently_due: due, eventually_due: [] },
      }),
      created,
    });
    const state = () =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('payout_accounts')
          .select(['payouts_enabled', 'status', 'requirements_currently_due', 'last_event_created_at'])
          .where('tester_id', '=', person.sub)
          .executeTakeFirstOrThrow(),
      );
    const now = Math.floor(Date.now() / 1000);
    const newer = at(now, true, []);
    const older = at(now - 60, false, ['external_account']);
    assert.equal((await h.postPaymentEvent(newer)).status, 200);
    assert.equal((await h.postPaymentEvent(older)).status, 200);
    assert.deepEqual(await state(), {
      payouts_enabled: true,
      status: 'verified',
      requirements_currently_due: [],
      last_event_created_at: new Date(now * 1000),
    });
    assert.match((await providerEvent('payments', older.id))?.processing_error ?? '', /older than/);

    const newest = at(now + 60, false, ['external_account']);
    assert.equal((await h.postPaymentEvent(newest)).status, 200);
    assert.deepEqual((await state()).status, 'restricted', 'a newer event applies');
  });

  it('a business cannot insert a study already marked paid through its own door', async () => {
    const values = studyValues(owner);
    const insert = (paidAt: Date | null) =>
      asUser(testDatabase(), owner.claims, (tx) =>
        tx
          .insertInto('studies')
          .values({ ...values, paid_at: paidAt })
          .returning('id')
          .execute(),
      );
    await assert.rejects(insert(new Date()), /only the payment provider's confirmation marks a study paid/);
    assert.equal((await insert(null)).length, 1, "the same row unpaid is the business's to insert");
  });

  it("only the provider's event marks a study paid: the business cannot set paid_at through its own door", async () => {
    const jobId = await draftStudy(h, owner);
    await assert.rejects(
      asUser(testDatabase(), owner.claims, (tx) =>
        tx.updateTable('studies').set({ paid_at: new Date() }).where('id', '=', jobId).execute(),
      ),
      /only the payment provider's confirmation marks a study paid/,
    );
    assert.equal((await studyRow(jobId)).paid_at, null);
  });

  it('an event that cannot be recorded answers non-200 (the provider retries); the retry is recorded', async () => {
    // PostgreSQL text cannot hold NUL: the insert fails and the whole transaction with it.
    const broken = event('customer.\u0000created', { id: 'cus_nul', object: 'customer' });
    const answer = await h.postPaymentEvent(broken);
    assert.equal(answer.status, 500, answer.text);
    assert.equal(await providerEvent('payments', broken.id), undefined);
    const fixed = { ...broken, type: 'customer.created' };
    assert.equal((await h.postPaymentEvent(fixed)).status, 200);
    assert.ok(await providerEvent('payments', broken.id));
  });
});
