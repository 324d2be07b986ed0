import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import {
  addPayoutAccount,
  business,
  draftStudy,
  payoutAccountOf,
  studyRow,
  tester,
  type Business,
} from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

interface Checkout {
  checkoutUrl: string;
  checkoutSessionId: string;
  amountTotal: number;
  currency: string;
}

const lineItem = (params: Record<string, unknown>) =>
  (params.line_items as Record<string, { quantity: string; price_data: Record<string, string> }>)['0']!;

const checkoutRows = (jobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('checkout_sessions').selectAll().where('study_id', '=', jobId).execute(),
  );

describe('POST /api/billing/checkout', () => {
  let h: PaymentsHarness;
  let owner: Business;
  before(async () => {
    // Long enough for an ordinary answer on a loaded machine (300 ms was not, beside the real-time
    // files), short enough that the timeout fault's test waits only that long.
    h = await startPaymentsHarness({ env: { STRIPE_TIMEOUT_MS: '3000' } });
    owner = await business();
  });
  after(() => h.stop());

  const checkout = (jobId: string, token = owner.token) =>
    h.request('POST', '/api/billing/checkout', { token, body: { jobId } });

  it('creates the checkout session through the SDK: tester count x compensation, in cents for EUR', async () => {
    const jobId = await draftStudy(h, owner, { currency: 'EUR', amount: 25 }, 4);
    const answer = await checkout(jobId);
    assert.equal(answer.status, 200, answer.text);
    const data = answer.body.data as Checkout;
    const [created] = h
      .provider!.createdAt('/v1/checkout/sessions')
      .filter((c) => c.params.client_reference_id === jobId);
    assert.ok(created, 'the provider received the checkout');
    assert.equal(data.checkoutSessionId, created.id);
    assert.equal(data.checkoutUrl, `https://checkout.provider.test/pay/${created.id}`);
    assert.deepEqual(
      { quantity: lineItem(created.params).quantity, ...lineItem(created.params).price_data },
      {
        quantity: '4',
        currency: 'eur',
        unit_amount: '2500',
        product_data: lineItem(created.params).price_data.product_data,
      },
    );
    assert.equal(data.amountTotal, 10_000);
    assert.equal(data.currency, 'EUR');
    assert.equal((created.params.metadata as Record<string, string>).jobId, jobId);
    assert.ok(created.idempotencyKey?.startsWith(`checkout:${jobId}:`), 'an idempotency key of the study');
    const [row] = await checkoutRows(jobId);
    assert.equal(row?.amount_total, '10000');
    assert.equal(row?.status, 'open');
  });

  // The provider's documented minor units: JPY and MGA whole units, ISK two decimals always 00,
  // KWD thousandths.
  for (const [currency, amount, unit, total] of [
    ['JPY', 1500, '1500', 4500],
    ['MGA', 2000, '2000', 6000],
    ['ISK', 1500, '150000', 450_000],
    ['KWD', 1.25, '1250', 3750],
  ] as const) {
    it(`${currency}: 3 x ${amount} is charged as ${total} in the provider's minor units`, async () => {
      const jobId = await draftStudy(h, owner, { currency, amount }, 3);
      const answer = await checkout(jobId);
      assert.equal(answer.status, 200, answer.text);
      const [created] = h
        .provider!.createdAt('/v1/checkout/sessions')
        .filter((c) => c.params.client_reference_id === jobId);
      assert.equal(lineItem(created!.params).price_data.unit_amount, unit);
      assert.equal(lineItem(created!.params).price_data.currency, currency.toLowerCase());
      assert.equal((answer.body.data as Checkout).amountTotal, total);
    });
  }

  for (const [currency, amount, why] of [
    ['JPY', 1500.5, 'half a yen'],
    ['MGA', 2000.5, 'half an ariary'],
    ['ISK', 1500.5, 'the provider takes whole krónur only'],
    ['HUF', 10.45, 'chargeable, but HUF is paid out in whole forints only'],
  ] as const) {
    it(`${amount} ${currency} (${why}) answers 422 naming compensation.amount, and asks the provider nothing`, async () => {
      const jobId = await draftStudy(h, owner, { currency, amount }, 2);
      const answer = await checkout(jobId);
      assert.equal(answer.status, 422, answer.text);
      assert.match(answer.body.error ?? '', /^compensation\.amount: /);
      assert.match(answer.body.error ?? '', new RegExp(currency));
      assert.equal(
        h.provider!.createdAt('/v1/checkout/sessions').filter((c) => c.params.client_reference_id === jobId)
          .length,
        0,
      );
    });
  }

  it('a second checkout of the same draft study returns the open session, not a second one', async () => {
    const jobId = await draftStudy(h, owner);
    const first = await checkout(jobId);
    const second = await checkout(jobId);
    assert.equal(second.status, 200, second.text);
    assert.equal(
      (second.body.data as Checkout).checkoutSessionId,
      (first.body.data as Checkout).checkoutSessionId,
    );
    assert.equal(
      h.provider!.createdAt('/v1/checkout/sessions').filter((c) => c.params.client_reference_id === jobId)
        .length,
      1,
    );
  });

  it('only a draft study checks out: an active study answers 409', async () => {
    const jobId = await draftStudy(h, owner);
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('studies').set({ status: 'active' }).where('id', '=', jobId).execute(),
    );
    const answer = await checkout(jobId);
    assert.equal(answer.status, 409, answer.text);
    assert.match(answer.body.error ?? '', /must be draft/);
  });

  it("another organization's study is 404, and testers may not check out (403)", async () => {
    const jobId = await draftStudy(h, owner);
    const stranger = await business();
    assert.equal((await checkout(jobId, stranger.token)).status, 404);
    assert.equal((await checkout(jobId, (await tester()).token)).status, 403);
  });

  it("with the provider configured, the local provider's pages answer 404 and pay nothing", async () => {
    // Rows a local setup left behind: served now, the pages would sign events with the real secret.
    const jobId = await draftStudy(h, owner);
    const id = `cs_local_${'a1'.repeat(12)}`;
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('checkout_sessions')
        .values({
          id,
          provider: 'local',
          organization_id: owner.organizationId,
          study_id: jobId,
          amount_total: 10_000,
          currency: 'EUR',
          url: `${h.url}/api/billing/local-checkout/${id}`,
          expires_at: new Date(Date.now() + 3_600_000),
        })
        .execute(),
    );
    const person = await tester();
    const accountId = `acct_local_${'b2'.repeat(12)}`;
    await addPayoutAccount(person.sub, accountId, { verified: false });

    const page = await h.request('GET', `/api/billing/local-checkout/${id}`);
    assert.equal(page.status, 404, page.text);
    const personsPage = await fetch(`${h.url}/billing/local-checkout/${id}`, {
      headers: { Accept: 'text/html' },
    });
    assert.equal(personsPage.status, 404);
    const onboarding = await h.request('GET', `/api/billing/local-onboarding/${accountId}`);
    assert.equal(onboarding.status, 404, onboarding.text);
    assert.equal((await studyRow(jobId)).paid_at, null);
    assert.equal((await payoutAccountOf(person.sub)).payouts_enabled, false);
  });

  for (const fault of ['status500', 'timeout', 'badJson'] as const) {
    it(`the provider failing (${fault}) answers 503 and stores no checkout`, async () => {
      const jobId = await draftStudy(h, owner);
      h.provider!.fault('/v1/checkout/sessions', fault);
      const answer = await checkout(jobId);
      assert.equal(answer.status, 503, answer.text);
      assert.match(answer.body.error ?? '', /Payment provider unavailable/);
      assert.deepEqual(await checkoutRows(jobId), []);
      // The next try goes through: nothing about the failure stuck.
      assert.equal((await checkout(jobId)).status, 200);
    });
  }
});
