import assert from 'node:assert/strict';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
import { studyStatusQuery, studyWorkflowId } from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, analyzedSession, type TesterSession } from '../sessions/fixtures.ts';
import { addPayoutAccount, eventually, paymentsOf, payoutEvent } from './fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from './harness.ts';

/** The payments harness as the session fixtures expect an API (same requests, same answers). */
const asTestApi = (h: PaymentsHarness): TestApi => ({
  api: h.api,
  url: h.url,
  config: h.config,
  request: h.request,
  stop: () => h.stop(),
});

/** A pro business and its active study of two testers (GB, desktop), made active as the webhook would. */
async function studyOfTwo(api: TestApi) {
  const business = await sessionToken((await createBusiness('pro')).claims);
  const jobId = await activeStudy(api, business, {
    ...validStudyBody(),
    targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 2 },
  });
  return { business, jobId };
}

async function confirm(api: TestApi, { sessionId, testerToken }: TesterSession) {
  const answer = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
    body: { rating: 5 },
    token: testerToken,
  });
  assert.equal(answer.status, 200, answer.text);
  assert.equal((answer.body.data as { payoutQueued: boolean }).payoutQueued, true);
}

// Spec: "Once a session is confirmed, the tester is paid out". The session workflow starts
// `payout:<paymentId>` right after it queues the payment; the study's completion and
// POST /api/billing/payout only catch up.
describe('a confirmed session is paid out by its own workflow', function () {
  // Agents, workflows and a shared machine: generous deadlines, never fixed waits.
  this.timeout(180_000);

  it('on a worker with payments: paid without any billing call, while the study is still collecting sessions', async () => {
    const h = await startPaymentsHarness();
    try {
      const api = asTestApi(h);
      const { business, jobId } = await studyOfTwo(api);
      const session = await analyzedSession(api, business, jobId);
      const accountId = `acct_session_${session.sessionId.slice(0, 8)}`;
      await addPayoutAccount(session.tester.sub, accountId);
      await confirm(api, session);

      const [payment] = await eventually(async () => {
        const rows = await paymentsOf(jobId);
        return rows[0]?.status === 'processing' && rows;
      }, 'payout sent at confirmation');
      const payouts = h.provider!.createdAt('/v1/payouts').filter((p) => p.account === accountId);
      assert.deepEqual(
        payouts.map((p) => [p.idempotencyKey, p.params.amount]),
        [[`payout:${payment!.id}:1:payout`, '2500']],
      );
      const study = h.temporal.client.workflow.getHandle(studyWorkflowId(jobId));
      assert.equal(await study.query(studyStatusQuery), 'active', 'one of two sessions: not completed');

      const paid = payoutEvent('payout.paid', payment!.provider_payout_id!, accountId);
      assert.equal((await h.postPaymentEvent(paid)).status, 200);
      const handle = h.temporal.client.workflow.getHandle(payoutWorkflowId(payment!.id));
      assert.equal(await handle.result(), 'paid');
      assert.equal((await paymentsOf(jobId))[0]?.status, 'paid');
    } finally {
      await h.stop();
    }
  });

  it('on a worker without payments: the payment is queued and no payout workflow is started', async () => {
    const api = await startTestApi();
    try {
      const { business, jobId } = await studyOfTwo(api);
      const session = await analyzedSession(api, business, jobId);
      await confirm(api, session);
      const { client } = await temporalEnvironment();
      // The session's life ends after Agent 3: everything it would start has been started by then.
      const handle = client.workflow.getHandle(sessionWorkflowId(session.sessionId));
      await handle.result();
      const events = (await handle.fetchHistory()).events ?? [];
      assert.equal(
        events.filter(
          (e) =>
            e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name === 'payoutWorkflow',
        ).length,
        0,
        'no payout workflow',
      );
      const [payment] = await paymentsOf(jobId);
      assert.equal(payment?.status, 'queued');
      await assert.rejects(client.workflow.getHandle(payoutWorkflowId(payment.id)).describe(), /not found/i);
    } finally {
      await api.stop();
    }
  });
});
