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
import { notificationWorkflowId } from '../../workflows/messages/notification.ts';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import { paymentConfirmedSignal, studyWorkflowId } from '../../workflows/messages/study.ts';
import { eventually, paymentsOf, payoutEvent, addPayoutAccount } from '../payments/fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { eligibleTester, recordStruggle, waitForSessionStatus } from '../sessions/fixtures.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { timeSkippingEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { HISTORIES_DIR } from './histories.ts';

async function keep(name: string, handle: WorkflowHandle): Promise<void> {
  const history = await handle.fetchHistory();
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
