import assert from 'node:assert/strict';
import { asSystem, asUser } from '../../db/doors.ts';
import { paymentEventWorkflowId } from '../../workflows/payment-events.ts';
import { studyStatusQuery, studyWorkflowId } from '../../workflows/study.ts';
import { testDatabase } from '../support/database.ts';
import {
  business,
  draftStudy,
  event,
  eventually,
  providerEvent,
  studyRow,
  tester,
  type Business,
} from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

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
  before(async () => {
    h = await startPaymentsHarness();
    owner = await business();
  });
  after(() => h.stop());

  /** A draft study with an open checkout session, and the event the provider sends once it is paid. */
  async function paidCheckout() {
    const jobId = await draftStudy(h, owner);
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

    it('a correctly signed event is accepted byte for byte: the body is not parsed before it is verified', async () => {
      const body = unknownEvent();
      // Whitespace a parser would drop: re-serialised, the signature would no longer match.
      const answer = await h.postPaymentEvent(JSON.stringify(body, null, 3));
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
        (body) => h.postPaymentEvent(body, { tamper: (raw) => raw.replace('cus_1', 'cus_2') }),
      ],
      ['wrong secret', (body) => h.postPaymentEvent(body, { secret: 'whsec_someone_else' })],
      [
        'stale timestamp (10 minutes old)',
        (body) => h.postPaymentEvent(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      ],
      ['missing header', (body) => h.postPaymentEvent(body, { header: null })],
    ];
    for (const [name, send] of refusals) {
      it(`${name}: 401 in the envelope, nothing recorded`, async () => {
        const body = unknownEvent();
        const answer = await send(body);
        assert.equal(answer.status, 401, answer.text);
        assert.match((JSON.parse(answer.text) as { error: string }).error, /Webhook signature/);
        assert.equal(await providerEvent('payments', body.id), undefined);
      });
    }

    it('counts against the webhook rate limit of 1,000 events per minute', async () => {
      const answer = await h.postPaymentEvent(unknownEvent());
      assert.equal(answer.headers.get('RateLimit-Limit'), '1000');
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

  it('account.updated stores charges_enabled, payouts_enabled, details_submitted and the requirement lists', async () => {
    const person = await tester();
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('payout_accounts')
        .values({ tester_id: person.sub, provider_account_id: 'acct_webhook_1' })
        .execute(),
    );
    const updated = event(
      'account.updated',
      {
        id: 'acct_webhook_1',
        object: 'account',
        charges_enabled: true,
        payouts_enabled: false,
        details_submitted: true,
        requirements: { currently_due: ['external_account'], eventually_due: ['individual.id_number'] },
      },
      'acct_webhook_1',
    );
    assert.equal((await h.postPaymentEvent(updated)).status, 200);
    const account = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('payout_accounts')
        .selectAll()
        .where('tester_id', '=', person.sub)
        .executeTakeFirstOrThrow(),
    );
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
