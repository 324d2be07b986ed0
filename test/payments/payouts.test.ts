import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { asSystem } from '../../db/doors.ts';
import { payoutWorkflowId } from '../../workflows/payout.ts';
import {
  changeStudyStatusUpdate,
  sessionConfirmedSignal,
  studyStatusQuery,
  studyWorkflow,
  studyWorkflowId,
} from '../../workflows/study.ts';
import { testDatabase } from '../support/database.ts';
import {
  admin,
  business,
  completedStudy,
  event,
  eventually,
  paymentsOf,
  tester,
  testerWithAccount,
  type Business,
} from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

describe('POST /api/billing/payout and the payout events', function () {
  // Workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(120_000);
  let h: PaymentsHarness;
  let owner: Business;
  before(async () => {
    h = await startPaymentsHarness();
    owner = await business();
  });
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
      args: [{ jobId, status: 'active' }],
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

  it('payout.paid marks the payment paid and tells the tester (email without a linked chat)', async () => {
    const person = await testerWithAccount();
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    const [payment] = await sent(jobId, 1);
    const paid = event(
      'payout.paid',
      {
        id: payment!.provider_payout_id,
        object: 'payout',
        amount: 2500,
        currency: 'eur',
        status: 'paid',
        arrival_date: 1_800_000_000,
      },
      person.accountId,
    );
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
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    const [payment] = await sent(jobId, 1);
    const paid = event(
      'payout.paid',
      { id: payment!.provider_payout_id, object: 'payout', status: 'paid' },
      person.accountId,
    );
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
    const { jobId } = await completedStudy(owner, [person]);
    await payout(jobId);
    const [payment] = await sent(jobId, 1);
    const failed = event(
      'payout.failed',
      {
        id: payment!.provider_payout_id,
        object: 'payout',
        status: 'failed',
        failure_code: 'account_closed',
        failure_message: 'The bank account has been closed',
      },
      person.accountId,
    );
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

    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('payout_accounts')
        .values({ tester_id: person.sub, provider_account_id: 'acct_late_1' })
        .execute(),
    );
    const ready = event(
      'account.updated',
      {
        id: 'acct_late_1',
        object: 'account',
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        requirements: { currently_due: [], eventually_due: [] },
      },
      'acct_late_1',
    );
    assert.equal((await h.postPaymentEvent(ready)).status, 200);
    await sent(jobId, 1);
    assert.equal(payoutsTo('acct_late_1').length, 1);
  });
});
