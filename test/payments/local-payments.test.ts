import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { studyStatusQuery, studyWorkflowId } from '../../workflows/messages/study.ts';
import { testDatabase } from '../support/database.ts';
import {
  business,
  completedStudy,
  draftStudy,
  eventually,
  paymentsOf,
  payoutAccountOf,
  studyRow,
  tester,
} from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

const localEvents = (type: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('provider_events')
      .selectAll()
      .where('provider', '=', 'payments')
      .where('type', '=', type)
      .where('id', 'like', 'evt_local_%')
      .execute(),
  );

// `npm start` without STRIPE_SECRET_KEY: the local provider runs the whole money path, and every
// change still arrives as a signed event at the real webhook route, over HTTP.
describe('payments without credentials (the local provider)', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let h: PaymentsHarness;
  before(async () => {
    h = await startPaymentsHarness({ local: true });
    assert.equal(h.config.payments.mode, 'local');
  });
  after(() => h.stop());

  it('checkout returns a local URL; opening it posts a signed checkout.session.completed: study active, business emailed', async () => {
    const owner = await business();
    const jobId = await draftStudy(h, owner);
    const checkout = await h.request('POST', '/api/billing/checkout', {
      token: owner.token,
      body: { jobId },
    });
    assert.equal(checkout.status, 200, checkout.text);
    const { checkoutUrl, checkoutSessionId } = checkout.body.data as {
      checkoutUrl: string;
      checkoutSessionId: string;
    };
    // The URL is the page a person pays on; a script pays through the API's route of the same id.
    assert.equal(checkoutUrl, `${h.config.http.baseUrl}/billing/local-checkout/${checkoutSessionId}`);

    const paid = await h.request('GET', `/api/billing/local-checkout/${checkoutSessionId}`);
    assert.equal(paid.status, 200, paid.text);
    assert.deepEqual(paid.body.data, { checkoutSessionId, jobId, status: 'complete' });
    const [recorded] = (await localEvents('checkout.session.completed')).filter(
      (row) => (row.payload as { data: { object: { id: string } } }).data.object.id === checkoutSessionId,
    );
    assert.ok(recorded, 'the webhook route recorded the signed event');
    assert.ok((await studyRow(jobId)).paid_at);
    const study = h.temporal.client.workflow.getHandle(studyWorkflowId(jobId));
    await eventually(async () => (await study.query(studyStatusQuery)) === 'active', 'study active');
    assert.match((await h.mail.waitFor(owner.email)).subject ?? '', /^Study commissioned/);
  });

  it('onboarding and payout: the local account is enabled by account.updated, the payout settles by payout.paid', async () => {
    const person = await tester();
    const connect = await h.request('POST', '/api/billing/connect', {
      token: person.token,
      body: { returnUrl: 'https://usability.example/tester/payouts' },
    });
    assert.equal(connect.status, 200, connect.text);
    const { onboardingUrl, accountId } = connect.body.data as { onboardingUrl: string; accountId: string };
    assert.match(accountId, /^acct_local_[0-9a-f]{24}$/);
    const onboarded = await h.request('GET', pathOf(onboardingUrl));
    assert.equal(onboarded.status, 200, onboarded.text);
    const account = await payoutAccountOf(person.sub);
    assert.deepEqual([account.payouts_enabled, account.status], [true, 'verified']);

    const owner = await business();
    const { jobId } = await completedStudy(owner, [person]);
    const queued = await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } });
    assert.equal(queued.status, 202, queued.text);
    const [payment] = await eventually(async () => {
      const rows = await paymentsOf(jobId);
      return rows[0]?.status === 'paid' && rows;
    }, 'payment paid by the local payout.paid event');
    assert.match(payment!.provider_payout_id ?? '', /^po_local_[0-9a-f]{24}$/);
    const [event] = (await localEvents('payout.paid')).filter(
      (row) =>
        (row.payload as { data: { object: { id: string } } }).data.object.id === payment!.provider_payout_id,
    );
    assert.ok(event, 'settled through the webhook route');
    assert.match((await h.mail.waitFor(person.email)).subject ?? '', /Payout of 25\.00 EUR paid/);
  });
});

describe('the local provider changes nothing without the webhook route', () => {
  let h: PaymentsHarness;
  before(async () => {
    // Events go to a port where nothing listens.
    h = await startPaymentsHarness({
      local: true,
      worker: false,
      env: { PAYMENTS_WEBHOOK_URL: 'http://127.0.0.1:9/api/webhooks/payments' },
    });
  });
  after(() => h.stop());

  it('a local checkout whose event cannot be delivered answers 503 and the study stays unpaid', async () => {
    const owner = await business();
    const jobId = await draftStudy(h, owner);
    const checkout = await h.request('POST', '/api/billing/checkout', {
      token: owner.token,
      body: { jobId },
    });
    const { checkoutSessionId } = checkout.body.data as { checkoutSessionId: string };
    const answer = await h.request('GET', `/api/billing/local-checkout/${checkoutSessionId}`);
    assert.equal(answer.status, 503, answer.text);
    assert.equal((await studyRow(jobId)).paid_at, null);
  });
});
