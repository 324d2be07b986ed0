// Records the histories the replay test (replay.test.ts) replays: one real life of each
// long-lived workflow, run through the API on the time-skipping server. Not part of the suite;
// run it when a workflow changes on purpose (docs/decisions/codebase.md, "Changing workflow code"):
//   npm test -- test/workflows/record-histories.ts
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { offerAnswerLink } from '../../lib/offer-links.ts';
import { notificationWorkflowId } from '../../workflows/messages/notification.ts';
import { offerWorkflowId } from '../../workflows/messages/offer.ts';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import {
  MIN_STUDY_HISTORY_LIMIT,
  paymentConfirmedSignal,
  studyStatusQuery,
  studyWorkflowId,
} from '../../workflows/messages/study.ts';
import type { offerWorkflow } from '../../workflows/offer.ts';
import { studyWorkflow } from '../../workflows/study.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';
import {
  addPayoutAccount,
  business as payingBusiness,
  eventually,
  paymentsOf,
  payoutEvent,
  insertPaidDraftStudy,
} from '../payments/fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { eligibleTester, recordStruggle, waitForSessionStatus } from '../sessions/fixtures.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { timeSkippingEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { HISTORIES_DIR, runsOf } from './histories.ts';

async function keep(name: string, handle: WorkflowHandle): Promise<void> {
  await keepHistory(name, await handle.fetchHistory());
}

async function keepHistory(name: string, history: proto.temporal.api.history.v1.IHistory): Promise<void> {
  await writeFile(
    new URL(name, HISTORIES_DIR),
    proto.temporal.api.history.v1.History.encode(history).finish(),
  );
}

describe('recording workflow histories for the replay test', function () {
  this.timeout(300_000);
  let env: TestWorkflowEnvironment;
  let h: PaymentsHarness;
  before(async function () {
    this.timeout(120_000);
    env = await timeSkippingEnvironment();
    h = await startPaymentsHarness({ temporal: env });
  });
  after(async function () {
    this.timeout(60_000);
    await h?.stop();
    await env?.teardown();
  });

  it("a study of one tester from draft to archived, its session through a pause, the gate and Agent 3, the tester's test token message, and a payout that fails once", async () => {
    const business = await sessionToken((await createBusiness('pro')).claims);
    const ask = async (method: 'GET' | 'POST' | 'PATCH', path: string, body: unknown, token = business) => {
      const answer = await h.request(method, path, { body, token });
      assert.ok(answer.status < 300, `${method} ${path}: ${answer.status} ${answer.text}`);
      return answer.body.data as Record<string, unknown>;
    };
    const { jobId } = (await ask('POST', '/api/jobs', {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 1 },
    })) as { jobId: string };
    const study = h.temporal.client.workflow.getHandle(studyWorkflowId(jobId));
    await study.signal(paymentConfirmedSignal);
    await eventually(
      async () => (await ask('GET', `/api/jobs/${jobId}`, undefined)).status === 'active',
      'active',
    );

    // A tester with a linked chat, so the session's test token is delivered by its own workflow.
    const tester = await eligibleTester();
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('tester_profiles')
        .set({ messaging_chat_id: `chat-${tester.sub.slice(0, 8)}` })
        .where('user_id', '=', tester.sub)
        .execute(),
    );
    const testerToken = await sessionToken(tester);
    const { sessionId } = (await ask('POST', '/api/sessions', { jobId, testerId: tester.sub })) as {
      sessionId: string;
    };
    const tokenMessage = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('notification_outbox')
        .select('id')
        .where('kind', '=', 'test_token')
        .where(sql<string>`payload->>'sessionId'`, '=', sessionId)
        .executeTakeFirstOrThrow(),
    );
    const notification = h.temporal.client.workflow.getHandle(notificationWorkflowId(tokenMessage.id));
    await ask('PATCH', `/api/sessions/${sessionId}`, { status: 'paused' });
    await ask('PATCH', `/api/sessions/${sessionId}`, { status: 'active' });
    await recordStruggle(sessionId);
    await ask('POST', `/api/sessions/${sessionId}/complete`, {});
    await waitForSessionStatus(h, sessionId, business, 'analyzed');
    const accountId = `acct_history_${sessionId.slice(0, 8)}`;
    await addPayoutAccount(tester.sub, accountId);
    await ask('POST', `/api/sessions/${sessionId}/confirm`, { rating: 5 }, testerToken);

    const first = await eventually(async () => {
      const [payment] = await paymentsOf(jobId);
      return payment?.status === 'processing' && payment.attempts === 1 && payment;
    }, 'first payout sent');
    const failed = payoutEvent('payout.failed', first.provider_payout_id!, accountId, {
      failure_code: 'could_not_process',
      failure_message: 'The bank could not process this payout',
    });
    assert.equal((await h.postPaymentEvent(failed)).status, 200);
    await eventually(async () => (await paymentsOf(jobId))[0]?.next_attempt_at, 'retry queued');
    await env.sleep(65 * 60_000);
    const second = await eventually(async () => {
      const [payment] = await paymentsOf(jobId);
      return payment?.status === 'processing' && payment.attempts === 2 && payment;
    }, 'second payout sent');
    const paid = payoutEvent('payout.paid', second.provider_payout_id!, accountId);
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    const payout = h.temporal.client.workflow.getHandle(payoutWorkflowId(second.id));
    assert.equal(await payout.result(), 'paid');

    const session = h.temporal.client.workflow.getHandle(sessionWorkflowId(sessionId));
    await session.result();
    await eventually(
      async () => (await ask('GET', `/api/jobs/${jobId}`, undefined)).status === 'completed',
      'completed',
    );
    await ask('PATCH', `/api/jobs/${jobId}`, { status: 'archived' });
    await study.result();
    // Awaited last: waiting on a result lets the time-skipping server run the session's time limit out.
    await notification.result();

    await keep('study-draft-to-archived.binpb', study);
    await keep('session-paused-confirmed-reported.binpb', session);
    await keep('payout-failed-then-paid.binpb', payout);
    await keep('notification-test-token.binpb', notification);
  });
});

// On the suite's Temporal server, in real time: the time-skipping server stops skipping once a
// run that started children has continued as new (its sleeps never end), and a session completed
// through the API must not end before it started (that server's clock runs ahead of this process's).
// The accepted offer's reminders are a day away: archiving withdraws it first.
describe('recording the recruitment histories for the replay test', function () {
  this.timeout(300_000);
  let h: PaymentsHarness;
  before(async function () {
    this.timeout(120_000);
    h = await startPaymentsHarness();
  });
  after(async function () {
    this.timeout(60_000);
    await h?.stop();
  });

  it('a study recruiting through proposals, offers (one declined, one accepted, withdrawn on archiving) and a skip, continuing as new, to archived', async () => {
    const owner = await payingBusiness('pro');
    const post = async (path: string, body: unknown = {}, token = owner.token) => {
      const answer = await h.request('POST', path, { body, token });
      assert.ok(answer.status < 300, `POST ${path}: ${answer.status} ${answer.text}`);
      return answer.body.data as Record<string, string>;
    };
    // Mexico (MX): no other test recruits there. One place: two proposals (over-booking), a third
    // tester for the refill after the decline.
    const testers = [];
    for (let i = 0; i < 3; i += 1) testers.push(await qualifiedTester('MX'));
    const studyId = await insertPaidDraftStudy(owner, {
      title: 'Recruitment history',
      country: 'MX',
      testers: 1,
    });
    const study = await h.temporal.client.workflow.start(studyWorkflow, {
      workflowId: studyWorkflowId(studyId),
      taskQueue: h.taskQueue,
      args: [{ studyId, status: 'draft', historyLimit: MIN_STUDY_HISTORY_LIMIT }],
    });
    await study.signal(paymentConfirmedSignal);
    const pending = async () =>
      (
        (await h.request('GET', `/api/outreach/proposals?jobId=${studyId}&limit=100`, { token: owner.token }))
          .body.data as { proposalId: string; testerId: string; status: string }[]
      ).filter((p) => p.status === 'pending');
    const offerRow = (outreachId: string) =>
      asSystem(testDatabase(), (tx) =>
        tx
          .selectFrom('outreach_messages')
          .select(['offer_status', 'session_id'])
          .where('id', '=', outreachId)
          .executeTakeFirstOrThrow(),
      );
    /** Approves the proposal and its message, waits for the offer to go out, and answers it. */
    const offered = async (proposalId: string, answer: 'accept' | 'decline') => {
      const { outreachId } = await post(`/api/outreach/proposals/${proposalId}/approve`);
      await post(`/api/outreach/${outreachId}/approve`);
      await eventually(async () => (await offerRow(outreachId!)).offer_status === 'open', 'offer sent');
      const link = offerAnswerLink(h.config.http.baseUrl, h.config.auth.jwtSecret, outreachId!, answer);
      const answered = await fetch(`${h.url}${link.slice(h.config.http.baseUrl.length)}`, { method: 'POST' });
      assert.equal(answered.status, 200);
      return outreachId!;
    };

    const [first, second] = await eventually(async () => {
      const listed = await pending();
      return listed.length === 2 && listed;
    }, 'two proposals');
    const declined = await offered(first!.proposalId, 'decline');
    const refill = await eventually(
      async () => (await pending()).find((p) => p.proposalId !== second!.proposalId),
      'a proposal for the freed place',
    );
    await post(`/api/outreach/proposals/${refill.proposalId}/reject`, { reason: 'Not this time' });
    const accepted = await offered(second!.proposalId, 'accept');
    const { session_id: sessionId } = await offerRow(accepted);
    assert.ok(sessionId);

    const accountId = `acct_history_${sessionId.slice(0, 8)}`;
    await addPayoutAccount(second!.testerId, accountId);
    const { started_at: startedAt } = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('started_at').where('id', '=', sessionId).executeTakeFirstOrThrow(),
    );
    await recordStruggle(sessionId, new Date(startedAt.getTime() + 60_000));
    await post(`/api/sessions/${sessionId}/complete`);
    await waitForSessionStatus(h, sessionId, owner.token, 'analyzed');
    const testerToken = await sessionToken({ sub: second!.testerId, role: 'tester', organization_id: null });
    await post(`/api/sessions/${sessionId}/confirm`, { rating: 4 }, testerToken);
    const payment = await eventually(async () => {
      const [row] = await paymentsOf(studyId);
      return row?.status === 'processing' && row;
    }, 'payout sent');
    const paid = payoutEvent('payout.paid', payment.provider_payout_id!, accountId);
    assert.equal((await h.postPaymentEvent(paid)).status, 200);
    await eventually(async () => (await study.query(studyStatusQuery)) === 'completed', 'completed');
    await eventually(async () => (await paymentsOf(studyId))[0]?.status === 'paid', 'paid');
    const archived = await h.request('PATCH', `/api/jobs/${studyId}`, {
      body: { status: 'archived' },
      token: owner.token,
    });
    assert.equal(archived.status, 200, archived.text);
    await study.result();
    const acceptedOffer = h.temporal.client.workflow.getHandle<typeof offerWorkflow>(
      offerWorkflowId(accepted),
    );
    const declinedOffer = h.temporal.client.workflow.getHandle<typeof offerWorkflow>(
      offerWorkflowId(declined),
    );
    const acceptedEnd = await acceptedOffer.result();
    assert.deepEqual(
      [acceptedEnd.outcome, acceptedEnd.remindersDue.map((reminder) => reminder.kind)],
      ['accepted', ['due_24h', 'due_2h']],
    );
    assert.equal((await declinedOffer.result()).outcome, 'declined');

    const runs = await runsOf(h.temporal.client, studyWorkflowId(studyId));
    assert.ok(runs.length >= 2, `the study continued as new: ${runs.length} run(s)`);
    const runHistory = (runId: string) =>
      h.temporal.client.workflow.getHandle(studyWorkflowId(studyId), runId).fetchHistory();
    await keepHistory('study-recruitment-first-run.binpb', await runHistory(runs[0]!.runId));
    await keepHistory('study-recruitment-last-run.binpb', await runHistory(runs.at(-1)!.runId));
    await keep('offer-accepted-withdrawn.binpb', acceptedOffer);
    await keep('offer-declined.binpb', declinedOffer);
  });
});
