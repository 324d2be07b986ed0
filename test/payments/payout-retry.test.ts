import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import {
  MAX_PAYOUT_ATTEMPTS,
  SETTLEMENT_CHECK_EVERY_MS,
  SETTLEMENT_FIRST_CHECK_MS,
  SETTLEMENT_WAIT_DAYS,
} from '../../workflows/payout.ts';
import { timeSkippingEnvironment } from '../support/temporal.ts';
import {
  admin,
  business,
  completedStudy,
  eventually,
  paymentsOf,
  payoutEvent,
  testerWithAccount,
  type Business,
} from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

// Retries wait hours: the time-skipping server moves the clock instead of the test waiting.
describe('payout retries and late settlements (time-skipping server)', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let h: PaymentsHarness;
  let owner: Business;
  before(async function () {
    this.timeout(120_000);
    env = await timeSkippingEnvironment();
    h = await startPaymentsHarness({ temporal: env });
    owner = await business();
  });
  after(async function () {
    this.timeout(60_000);
    await h?.stop();
    await env?.teardown();
  });

  const payoutsTo = (accountId: string) =>
    h.provider!.createdAt('/v1/payouts').filter((p) => p.account === accountId);
  const attemptSent = (jobId: string, attempt: number) =>
    eventually(async () => {
      const [payment] = await paymentsOf(jobId);
      return payment?.status === 'processing' && payment.attempts === attempt && payment;
    }, `attempt ${attempt} sent`);
  const fail = (payoutId: string, accountId: string) =>
    h.postPaymentEvent(
      payoutEvent('payout.failed', payoutId, accountId, {
        failure_code: 'could_not_process',
        failure_message: 'The bank could not process this payout',
      }),
    );

  it('the next attempt waits its backoff, then pays out again under new keys, without a second transfer', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    assert.equal(
      (await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } })).status,
      202,
    );
    const first = await attemptSent(jobId, 1);
    assert.equal((await fail(first.provider_payout_id!, person.accountId)).status, 200);
    await eventually(async () => (await paymentsOf(jobId))[0]?.next_attempt_at, 'retry queued');

    await env.sleep(60 * 60_000 - 5 * 60_000);
    assert.equal(payoutsTo(person.accountId).length, 1, 'no retry before the backoff has passed');
    await env.sleep(10 * 60_000);
    const second = await attemptSent(jobId, 2);
    const payouts = payoutsTo(person.accountId);
    assert.deepEqual(
      payouts.map((p) => p.idempotencyKey),
      [`payout:${second.id}:1:payout`, `payout:${second.id}:2:payout`],
    );
    assert.equal(
      h.provider!.createdAt('/v1/transfers').filter((t) => t.params.destination === person.accountId).length,
      1,
    );
    assert.equal(second.provider_payout_id, payouts[1]!.id);

    const paid = payoutEvent('payout.paid', second.provider_payout_id, person.accountId);
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    assert.equal(await h.temporal.client.workflow.getHandle(payoutWorkflowId(second.id)).result(), 'paid');
    assert.equal((await paymentsOf(jobId))[0]?.status, 'paid');
  });

  it(`waits 1 h, 2 h, 4 h and 8 h after successive failures, then gives up after ${MAX_PAYOUT_ATTEMPTS}; the last alert says no retry is queued`, async () => {
    const HOUR = 60 * 60_000;
    // Written out, not computed by the code under test.
    const backoff = [1 * HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR];
    const watcher = await admin();
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } });
    for (let attempt = 1; attempt <= MAX_PAYOUT_ATTEMPTS; attempt += 1) {
      const payment = await attemptSent(jobId, attempt);
      assert.equal((await fail(payment.provider_payout_id!, person.accountId)).status, 200);
      if (attempt === MAX_PAYOUT_ATTEMPTS) break;
      const queued = await eventually(async () => {
        const [row] = await paymentsOf(jobId);
        return row?.status === 'failed' && row.next_attempt_at ? row : undefined;
      }, `retry ${attempt} queued`);
      const delay = queued.next_attempt_at!.getTime() - queued.failed_at!.getTime();
      assert.equal(
        delay,
        backoff[attempt - 1],
        `failure ${attempt}: the next attempt is recorded ${delay} ms later`,
      );
      // The workflow really waits that long: nothing five minutes before, the attempt five after.
      await env.sleep(backoff[attempt - 1]! - 5 * 60_000);
      assert.equal(
        payoutsTo(person.accountId).length,
        attempt,
        `no attempt ${attempt + 1} before its backoff`,
      );
      await env.sleep(10 * 60_000);
    }
    const [payment] = await paymentsOf(jobId);
    assert.equal(
      await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id)).result(),
      'gave_up',
    );
    const [final] = await paymentsOf(jobId);
    assert.deepEqual(
      [final?.status, final?.attempts, final?.next_attempt_at],
      ['failed', MAX_PAYOUT_ATTEMPTS, null],
    );
    assert.equal(payoutsTo(person.accountId).length, MAX_PAYOUT_ATTEMPTS);
    const last = await eventually(
      () =>
        Promise.resolve(
          h.mail.messages.find(
            (mail) =>
              mail.subject?.includes(`(attempt ${MAX_PAYOUT_ATTEMPTS})`) &&
              JSON.stringify(mail.to).includes(watcher.email),
          ),
        ),
      'final alert',
    );
    assert.match(last.text ?? '', /No retry is queued/);
  });

  describe('a payout whose event never comes', () => {
    const DAY = 24 * 60 * 60_000;
    const asked = (payoutId: string) =>
      h.provider!.requests.filter((request) => request.path === `/v1/payouts/${payoutId}`);
    const sentWithoutEvent = async () => {
      const person = await testerWithAccount();
      const { jobId } = await completedStudy(owner, [person]);
      await h.request('POST', '/api/billing/payout', { token: owner.token, body: { jobId } });
      const payment = await attemptSent(jobId, 1);
      return { person, jobId, payment, payoutId: payment.provider_payout_id! };
    };

    it('is asked of the provider after three days; paid there, the payment is paid and the tester told', async () => {
      assert.equal(SETTLEMENT_FIRST_CHECK_MS, 3 * DAY);
      const { person, jobId, payment, payoutId } = await sentWithoutEvent();
      h.provider!.setPayoutStatus(payoutId, 'in_transit');
      await env.sleep(3 * DAY - 60 * 60_000);
      assert.equal(asked(payoutId).length, 0, 'nothing is asked before three days');
      h.provider!.setPayoutStatus(payoutId, 'paid');
      await env.sleep(2 * 60 * 60_000);
      assert.equal(await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment.id)).result(), 'paid');
      assert.deepEqual(
        asked(payoutId).map((request) => request.account),
        [person.accountId],
        'asked once, on the account the payout was made on',
      );
      const [row] = await paymentsOf(jobId);
      assert.equal(row?.status, 'paid');
      assert.match((await h.mail.waitFor(person.email)).subject ?? '', /Payout of .* paid/);

      // The event that comes after changes nothing and tells nobody again.
      const late = payoutEvent('payout.paid', payoutId, person.accountId);
      assert.equal((await h.postPaymentEvent(late)).status, 200);
      assert.equal(
        h.mail.messages.filter((mail) => JSON.stringify(mail.to).includes(person.email)).length,
        1,
      );
    });

    it('reported failed by the provider fails the payment, alerts the admins and queues the retry', async () => {
      const watcher = await admin();
      const { jobId, payoutId } = await sentWithoutEvent();
      h.provider!.setPayoutStatus(payoutId, 'failed', {
        code: 'account_closed',
        message: 'The bank account has been closed',
      });
      await env.sleep(3 * DAY + 60 * 60_000);
      const failed = await eventually(async () => {
        const [row] = await paymentsOf(jobId);
        return row?.status === 'failed' && row.next_attempt_at ? row : undefined;
      }, 'failed with a retry queued');
      assert.deepEqual([failed.failure_code, failed.attempts], ['account_closed', 1]);
      await eventually(
        () =>
          Promise.resolve(
            h.mail.messages.find(
              (mail) =>
                mail.subject?.includes('(attempt 1)') &&
                JSON.stringify(mail.to).includes(watcher.email) &&
                mail.text?.includes('account_closed'),
            ),
          ),
        'failure alert',
      );
    });

    it(`is asked again every day while in transit; after ${SETTLEMENT_WAIT_DAYS} days the admins are told and the payment stays processing`, async () => {
      assert.deepEqual([SETTLEMENT_CHECK_EVERY_MS, SETTLEMENT_WAIT_DAYS], [DAY, 30]);
      const watcher = await admin();
      const { person, jobId, payment, payoutId } = await sentWithoutEvent();
      h.provider!.setPayoutStatus(payoutId, 'in_transit');
      await env.sleep(5 * DAY + 60 * 60_000);
      assert.equal(asked(payoutId).length, 3, 'asked on days 3, 4 and 5');
      await env.sleep(26 * DAY);
      const handle = h.temporal.client.workflow.getHandle(payoutWorkflowId(payment.id));
      assert.equal(await handle.result(), 'unsettled');
      assert.equal(asked(payoutId).length, 28, 'asked on each day from the third to the thirtieth');
      assert.equal((await paymentsOf(jobId))[0]?.status, 'processing');
      // Other payouts of this file (the retry queued by the test before) may be unsettled by now
      // too, and every admin hears of each: the alert looked for is the one naming this payout.
      const alert = await eventually(
        () =>
          Promise.resolve(
            h.mail.messages.find(
              (mail) =>
                mail.subject?.startsWith('Payout not settled after 30 days') &&
                JSON.stringify(mail.to).includes(watcher.email) &&
                mail.text?.includes(payoutId),
            ),
          ),
        'unsettled alert',
      );
      assert.match(alert.text ?? '', /still reports it neither paid nor failed/);

      // Its event still settles it, with no workflow waiting.
      const paid = payoutEvent('payout.paid', payoutId, person.accountId);
      assert.equal((await h.postPaymentEvent(paid)).status, 200);
      await eventually(async () => (await paymentsOf(jobId))[0]?.status === 'paid', 'paid by its event');
    });
  });
});
