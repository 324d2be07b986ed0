import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { WorkflowHandle } from '@temporalio/client';
import {
  createPayoutActivities,
  type SendPayoutResult,
} from '../../activities/payments/payout-activities.ts';
import { createStripeClient, createStripeProvider } from '../../clients/payments/stripe-provider.ts';
import { asSystem } from '../../db/doors.ts';
import { paymentEventWorkflowId } from '../../workflows/messages/payment-events.ts';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import {
  changeStudyStatusUpdate,
  sessionConfirmedSignal,
  studyStatusQuery,
  studyWorkflowId,
} from '../../workflows/messages/study.ts';
import { studyWorkflow } from '../../workflows/study.ts';
import { testDatabase } from '../support/database.ts';
import {
  accountUpdated,
  addPayoutAccount,
  admin,
  business,
  completedStudy,
  eventually,
  paymentsOf,
  payoutEvent,
  providerEvent,
  tester,
  testerWithAccount,
  type Business,
} from './fixtures.ts';
import { startPaymentsHarnessWithOwner, type PaymentsHarness } from './harness.ts';

describe('POST /api/billing/payout and the payout events', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let h: PaymentsHarness;
  let owner: Business;
  before(async () => ({ h, owner } = await startPaymentsHarnessWithOwner()));
  after(() => h.stop());

  const payout = (jobId: string, token = owner.token) =>
    h.request('POST', '/api/billing/payout', { token, body: { jobId } });
  const payoutsTo = (accountId: string) =>
    h.provider!.createdAt('/v1/payouts').filter((p) => p.account === accountId);
  const sent = async (jobId: string, count: number) =>
    eventually(async () => {
      const rows = await paymentsOf(jobId);
      return rows.length === count && rows.every((row) => row.status === 'processing') && rows;
    }, 'payments processing');
  const mailsTo = (email: string, subject: RegExp) =>
    h.mail.messages.filter(
      (mail) => JSON.stringify(mail.to).includes(email) && subject.test(mail.subject ?? ''),
    );
  /** The workflow's history once its last task has completed after `activity` ran: it is waiting. */
  const waitingAfter = (handle: WorkflowHandle, activity: string) =>
    eventually(async () => {
      const events = (await handle.fetchHistory()).events ?? [];
      const scheduled = events.findIndex(
        (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activity,
      );
      const done = events.findIndex(
        (e, index) => index > scheduled && e.activityTaskCompletedEventAttributes,
      );
      // Waiting: its last task done, or the timer of its wait for the settlement started.
      const last = events.at(-1);
      const idle = Boolean(last?.workflowTaskCompletedEventAttributes ?? last?.timerStartedEventAttributes);
      return scheduled >= 0 && done >= 0 && idle ? events : undefined;
    }, `waiting after ${activity}`);
  const activitiesIn = (events: Awaited<ReturnType<typeof waitingAfter>>) =>
    events.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  /** A completed study of `person`, paid out: its id and its payment once the payout is sent. */
  const sentPayout = async (person: { sub: string }) => {
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    const [payment] = await sent(jobId, 1);
    return { jobId, payment };
  };
  /** A payment of a session, written directly as an attempt leaves it once its payout is made. */
  const processingPayment = (p: {
    jobId: string;
    sessionId: string;
    testerId: string;
    payoutId: string;
    attempts: number;
  }) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('payments')
        .values({
          organization_id: owner.organizationId,
          study_id: p.jobId,
          session_id: p.sessionId,
          tester_id: p.testerId,
          amount: '25.00',
          currency: 'EUR',
          status: 'processing',
          provider_payout_id: p.payoutId,
          attempts: p.attempts,
        })
        .returningAll()
        .execute(),
    );

  it('queues every confirmed, unpaid session: a transfer and a payout per tester, each under its idempotency key', async () => {
    const [ann, bob] = [await testerWithAccount(), await testerWithAccount()];
    const { jobId } = await completedStudy(owner, [ann, bob]);
    const answer = await payout(jobId);
    assert.equal(answer.status, 202, answer.text);
    assert.deepEqual(answer.body.data, { queued: 2 });

    const payments = await sent(jobId, 2);
    for (const payment of payments) {
      const account = payment.tester_id === ann.sub ? ann.accountId : bob.accountId;
      const [transfer] = h
        .provider!.createdAt('/v1/transfers')
        .filter((t) => t.params.destination === account);
      const [po] = payoutsTo(account);
      assert.equal(transfer?.idempotencyKey, `payout:${payment.id}:1:transfer`);
      assert.equal(transfer?.params.amount, '2500');
      assert.equal(po?.idempotencyKey, `payout:${payment.id}:1:payout`);
      assert.equal(po?.account, account, 'the payout is made on the connected account');
      assert.deepEqual(
        [payment.provider_payout_id, payment.provider_transfer_id, payment.attempts],
        [po?.id, transfer?.id, 1],
      );
    }
  });

  it('a study reaching its target pays its testers without being asked, and can still be archived', async () => {
    const person = await testerWithAccount();
    const { jobId, sessionIds } = await completedStudy(owner, [person], undefined, 'active');
    const study = await h.temporal.client.workflow.start(studyWorkflow, {
      workflowId: studyWorkflowId(jobId),
      taskQueue: h.taskQueue,
      args: [{ studyId: jobId, status: 'active' }],
    });
    await study.signal(sessionConfirmedSignal, sessionIds[0]!);

    const [payment] = await sent(jobId, 1);
    assert.equal(payoutsTo(person.accountId).length, 1);
    await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id)).describe();
    assert.equal(await study.query(studyStatusQuery), 'completed');
    assert.equal(await study.executeUpdate(changeStudyStatusUpdate, { args: ['archive'] }), 'archived');
    await study.result();
    // A later call finds the payout already under way: nothing is paid twice.
    assert.deepEqual((await payout(jobId)).body.data, { queued: 1 });
    assert.equal(payoutsTo(person.accountId).length, 1);
  });

  it('a second call while payouts run starts nothing new', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    await sent(jobId, 1);
    const again = await payout(jobId);
    assert.deepEqual(again.body.data, { queued: 1 });
    const [payment] = await paymentsOf(jobId);
    await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id)).describe();
    assert.equal(payoutsTo(person.accountId).length, 1);
  });

  it('only a completed study pays out (409); another organization gets 404; a tester 403', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    await asSystem(testDatabase(), (tx) =>
      tx.updateTable('studies').set({ status: 'active' }).where('id', '=', jobId).execute(),
    );
    const early = await payout(jobId);
    assert.equal(early.status, 409, early.text);
    assert.match(early.body.error ?? '', /must be completed/);
    assert.equal((await payout(jobId, (await business()).token)).status, 404);
    assert.equal((await payout(jobId, (await tester()).token)).status, 403);
  });

  it('an admin may pay out the study of any organization', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    const answer = await payout(jobId, (await admin()).token);
    assert.equal(answer.status, 202, answer.text);
    assert.deepEqual(answer.body.data, { queued: 1 });
  });

  it('payout.paid marks the payment paid and tells the tester (email without a linked chat)', async () => {
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const paid = payoutEvent('payout.paid', payment!.provider_payout_id!, person.accountId, {
      amount: 2500,
      currency: 'eur',
      arrival_date: 1_800_000_000,
    });
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    const [row] = await paymentsOf(jobId);
    assert.equal(row?.status, 'paid');
    assert.ok(row?.paid_at);
    const mail = await h.mail.waitFor(person.email);
    assert.match(mail.subject ?? '', /Payout of 25\.00 EUR paid/);
    assert.equal(await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id)).result(), 'paid');
  });

  it('payout.paid for a tester with a linked chat goes through the messaging outbox', async () => {
    const person = await testerWithAccount();
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('tester_profiles')
        .values({ user_id: person.sub, country: 'GB', devices: ['desktop'], messaging_chat_id: '424242' })
        .execute(),
    );
    const { payment } = await sentPayout(person);
    const paid = payoutEvent('payout.paid', payment!.provider_payout_id!, person.accountId);
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    const row = await eventually(
      () =>
        asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('notification_outbox')
            .selectAll()
            .where('dedupe_key', '=', `payment-paid:${payment!.id}`)
            .where('status', '=', 'sent')
            .executeTakeFirst(),
        ),
      'message delivered',
    );
    assert.deepEqual([row.channel, row.recipient, row.kind], ['messaging', '424242', 'payment_confirmation']);
    const files = await readdir(h.messagingDir);
    const texts = await Promise.all(files.map((file) => readFile(join(h.messagingDir, file), 'utf8')));
    assert.ok(texts.some((text) => text.includes('424242') && text.includes('25.00 EUR')));
  });

  it('payout.failed marks the payment failed, alerts every admin and queues a retry', async () => {
    const [first, second] = [await admin(), await admin()];
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const failed = payoutEvent('payout.failed', payment!.provider_payout_id!, person.accountId);
    assert.equal((await h.postPaymentEvent(failed)).status, 200);
    const row = await eventually(async () => {
      const [current] = await paymentsOf(jobId);
      return current?.next_attempt_at ? current : undefined;
    }, 'retry queued');
    assert.deepEqual(
      [row.status, row.failure_code, row.failure_message],
      ['failed', 'account_closed', 'The bank account has been closed'],
    );
    const delay = row.next_attempt_at!.getTime() - row.failed_at!.getTime();
    assert.ok(delay > 50 * 60_000 && delay < 70 * 60_000, `the first retry waits an hour (${delay} ms)`);
    for (const person of [first, second]) {
      const mail = await h.mail.waitFor(person.email);
      assert.match(mail.subject ?? '', /Payout failed for session/);
      assert.match(mail.text ?? '', /account_closed/);
      assert.match(mail.text ?? '', /A retry is queued for/);
    }
  });

  it('a tester without a payout account is waited for; account.updated with payouts enabled releases the payout', async () => {
    const person = await tester();
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    const [payment] = await eventually(
      async () => (await paymentsOf(jobId)).length === 1 && paymentsOf(jobId),
      'payment queued',
    );
    const handle = h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id));
    await eventually(
      async () => (await handle.fetchHistory()).events?.some((e) => e.timerStartedEventAttributes) ?? false,
      'waiting for the account',
    );
    assert.equal((await paymentsOf(jobId))[0]?.status, 'queued');

    await addPayoutAccount(person.sub, 'acct_late_1', { verified: false });
    const ready = accountUpdated('acct_late_1', {
      charges_enabled: true,
      payouts_enabled: true,
      details_submitted: true,
      requirements: { currently_due: [], eventually_due: [] },
    });
    assert.equal((await h.postPaymentEvent(ready)).status, 200);
    await sent(jobId, 1);
    assert.equal(payoutsTo('acct_late_1').length, 1);
  });
  // The provider's documented minor units (lib/money.ts), at the transfer and the payout.
  for (const [currency, amount, minor] of [
    ['JPY', '1500.00', '1500'],
    ['MGA', '2000.00', '2000'],
    ['ISK', '1500.00', '150000'],
    ['KWD', '1.25', '1250'],
  ] as const) {
    it(`${amount} ${currency} is transferred and paid out as ${minor}`, async () => {
      const person = await testerWithAccount();
      const { jobId } = await completedStudy(owner, [person], { currency, amount });
      assert.equal((await payout(jobId)).status, 202);
      await sent(jobId, 1);
      const [transfer] = h
        .provider!.createdAt('/v1/transfers')
        .filter((t) => t.params.destination === person.accountId);
      const [po] = payoutsTo(person.accountId);
      assert.deepEqual(
        [transfer?.params.amount, transfer?.params.currency, po?.params.amount, po?.params.currency],
        [minor, currency.toLowerCase(), minor, currency.toLowerCase()],
      );
    });
  }

  it('a payment still processing when its workflow (re)starts waits for that payout: no second attempt', async () => {
    const person = await testerWithAccount();
    const { jobId, sessionIds } = await completedStudy(owner, [person]);
    const stuck = `po_stuck_${sessionIds[0]!.slice(0, 8)}`;
    await processingPayment({
      jobId,
      sessionId: sessionIds[0]!,
      testerId: person.sub,
      payoutId: stuck,
      attempts: 1,
    });
    assert.equal((await payout(jobId)).status, 202);
    const [payment] = await paymentsOf(jobId);
    const handle = h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id));
    const waiting = await waitingAfter(handle, 'preparePayout');
    assert.deepEqual(
      activitiesIn(waiting),
      ['preparePayout'],
      'no attempt while the recorded payout is open',
    );

    assert.equal((await h.postPaymentEvent(payoutEvent('payout.paid', stuck, person.accountId))).status, 200);
    assert.equal(await handle.result(), 'paid');
    assert.equal(payoutsTo(person.accountId).length, 0, 'nothing paid out a second time');
    assert.deepEqual(activitiesIn((await handle.fetchHistory()).events ?? []), ['preparePayout']);
  });

  it('payout.failed after payout.paid for the same payout: failed again, admins alerted, a retry queued', async () => {
    const watcher = await admin();
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const payoutId = payment!.provider_payout_id!;
    const handle = h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id));
    assert.equal(
      (await h.postPaymentEvent(payoutEvent('payout.paid', payoutId, person.accountId))).status,
      200,
    );
    assert.equal(await handle.result(), 'paid');

    // The bank returned it: the provider reports the same payout failed.
    assert.equal(
      (await h.postPaymentEvent(payoutEvent('payout.failed', payoutId, person.accountId))).status,
      200,
    );
    const row = await eventually(async () => {
      const [current] = await paymentsOf(jobId);
      return current?.next_attempt_at ? current : undefined;
    }, 'retry queued');
    assert.deepEqual([row.status, row.paid_at, row.failure_code], ['failed', null, 'account_closed']);
    const delay = row.next_attempt_at!.getTime() - row.failed_at!.getTime();
    assert.equal(delay, 60 * 60_000, 'the first retry waits an hour');
    const alert = await h.mail.waitFor(watcher.email, 60_000);
    assert.match(alert.text ?? '', /A retry is queued for/);
    assert.equal((await handle.describe()).status.name, 'RUNNING', 'a payout workflow waits to retry');
  });

  it('repeats of payout.paid change nothing: one tester message, one signal', async () => {
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const paid = payoutEvent('payout.paid', payment!.provider_payout_id!, person.accountId);
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    await h.temporal.client.workflow.getHandle(paymentEventWorkflowId(paid.id)).result();
    const [settled] = await paymentsOf(jobId);

    assert.equal((await h.postPaymentEvent(paid)).status, 200, 'the same delivery again');
    const another = { ...paid, id: `${paid.id}_again` };
    assert.equal((await h.postPaymentEvent(another)).status, 200, 'another event about the same payout');
    assert.match((await providerEvent('payments', another.id))?.processing_error ?? '', /already paid/);
    await assert.rejects(
      h.temporal.client.workflow.getHandle(paymentEventWorkflowId(another.id)).describe(),
      /not found/i,
    );
    const [after] = await paymentsOf(jobId);
    assert.deepEqual([after?.paid_at, after?.updated_at], [settled?.paid_at, settled?.updated_at]);
    assert.equal(mailsTo(person.email, /^Payout of/).length, 1);
    const history = await h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id)).fetchHistory();
    assert.equal(history.events?.filter((e) => e.workflowExecutionSignaledEventAttributes).length, 1);
  });

  it('repeats of payout.failed change nothing: one admin alert', async () => {
    const watcher = await admin();
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const failed = payoutEvent('payout.failed', payment!.provider_payout_id!, person.accountId);
    assert.equal((await h.postPaymentEvent(failed)).status, 200);
    await h.mail.waitFor(watcher.email, 60_000);
    const [before] = await paymentsOf(jobId);

    assert.equal((await h.postPaymentEvent(failed)).status, 200, 'the same delivery again');
    const another = { ...failed, id: `${failed.id}_again` };
    assert.equal((await h.postPaymentEvent(another)).status, 200, 'another event about the same payout');
    assert.match(
      (await providerEvent('payments', another.id))?.processing_error ?? '',
      /already recorded as failed/,
    );
    await assert.rejects(
      h.temporal.client.workflow.getHandle(paymentEventWorkflowId(another.id)).describe(),
      /not found/i,
    );
    const [after] = await paymentsOf(jobId);
    assert.deepEqual(
      [after?.failed_at, after?.updated_at, after?.next_attempt_at],
      [before?.failed_at, before?.updated_at, before?.next_attempt_at],
    );
    assert.equal(mailsTo(watcher.email, /^Payout failed/).length, 1);
  });

  it('payout.paid for a payout the provider reported failed changes nothing: a failed payout is never paid', async () => {
    const person = await testerWithAccount();
    const { jobId, payment } = await sentPayout(person);
    const payoutId = payment!.provider_payout_id!;
    assert.equal(
      (await h.postPaymentEvent(payoutEvent('payout.failed', payoutId, person.accountId))).status,
      200,
    );
    const late = payoutEvent('payout.paid', payoutId, person.accountId);
    assert.equal((await h.postPaymentEvent(late)).status, 200);
    const [row] = await paymentsOf(jobId);
    assert.deepEqual([row?.status, row?.paid_at], ['failed', null]);
    assert.match((await providerEvent('payments', late.id))?.processing_error ?? '', /never paid/);
    await assert.rejects(
      h.temporal.client.workflow.getHandle(paymentEventWorkflowId(late.id)).describe(),
      /not found/i,
    );
  });

  it("a payout event settles only the payment's latest attempt: an earlier attempt's payout changes nothing", async () => {
    const person = await testerWithAccount();
    const { jobId, sessionIds } = await completedStudy(owner, [person]);
    const tag = sessionIds[0]!.slice(0, 8);
    // Attempt 2 is recorded and waits for its settlement.
    const [payment] = await processingPayment({
      jobId,
      sessionId: sessionIds[0]!,
      testerId: person.sub,
      payoutId: `po_second_${tag}`,
      attempts: 2,
    });
    const about = (payoutId: string, attempt: number) =>
      payoutEvent('payout.paid', payoutId, person.accountId, {
        metadata: { paymentId: payment!.id, attempt: String(attempt) },
      });

    const stale = about(`po_first_${tag}`, 1);
    assert.equal((await h.postPaymentEvent(stale)).status, 200);
    assert.match((await providerEvent('payments', stale.id))?.processing_error ?? '', /unknown payout/);
    const [waiting] = await paymentsOf(jobId);
    assert.deepEqual([waiting?.status, waiting?.provider_payout_id], ['processing', `po_second_${tag}`]);

    // A newer attempt's payout, whose event beat the recording of the payout, settles it.
    assert.equal((await h.postPaymentEvent(about(`po_third_${tag}`, 3))).status, 200);
    const [settled] = await paymentsOf(jobId);
    assert.deepEqual([settled?.status, settled?.provider_payout_id], ['paid', `po_third_${tag}`]);
  });

  it('a payout.failed that beats the recording of its payout is kept: the payment stays failed', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    const [payment] = await asSystem(testDatabase(), async (tx) => {
      await tx
        .insertInto('payments')
        .columns(['organization_id', 'study_id', 'session_id', 'tester_id', 'amount', 'currency'])
        .expression((eb) =>
          eb
            .selectFrom('sessions')
            .select([
              'organization_id',
              'study_id',
              'id',
              'tester_id',
              eb.val('25.00').as('amount'),
              eb.val('EUR').as('currency'),
            ])
            .where('study_id', '=', jobId),
        )
        .execute();
      return tx.selectFrom('payments').selectAll().where('study_id', '=', jobId).execute();
    });
    // The provider makes the payout and its failure event reaches the webhook route before the
    // activity records the payout (a fast bank rejection).
    const real = createStripeProvider(createStripeClient(h.config.payments));
    const racing = {
      ...real,
      async payout(movement: Parameters<typeof real.payout>[0]) {
        const made = await real.payout(movement);
        const early = payoutEvent('payout.failed', made.payoutId, person.accountId, {
          metadata: { paymentId: movement.paymentId, attempt: String(movement.attempt) },
        });
        assert.equal((await h.postPaymentEvent(early)).status, 200);
        return made;
      },
    };
    const activities = createPayoutActivities({ db: testDatabase(), provider: racing });
    const result: SendPayoutResult = await new MockActivityEnvironment().run(
      (input: { paymentId: string; attempt: number }) => activities.sendPayout(input),
      { paymentId: payment!.id, attempt: 1 },
    );
    assert.equal(result.outcome, 'sent');
    const [row] = await paymentsOf(jobId);
    assert.deepEqual(
      [row?.status, row?.provider_payout_id, row?.attempts, row?.failure_code],
      ['failed', result.outcome === 'sent' ? result.payoutId : null, 1, 'account_closed'],
    );
  });
});
