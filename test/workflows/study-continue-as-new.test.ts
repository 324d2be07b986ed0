import assert from 'node:assert/strict';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { updateOrConflict } from '../../commands/update-or-conflict.ts';
import { asSystem, type Claims } from '../../db/doors.ts';
import { ApiError } from '../../lib/errors.ts';
import { failureOfType, INVALID_STUDY_TRANSITION, STUDY_RUN_SWITCHING } from '../../lib/failures.ts';
import { offerAnswerLink } from '../../lib/offer-links.ts';
import { offerWorkflowId } from '../../workflows/messages/offer.ts';
import {
  changeStudyStatusUpdate,
  MIN_STUDY_HISTORY_LIMIT,
  paymentConfirmedSignal,
  sessionConfirmedSignal,
  sessionReportedSignal,
  studyStatusQuery,
  studyWorkflowId,
} from '../../workflows/messages/study.ts';
import { studyWorkflow } from '../../workflows/study.ts';
import { qualifiedTester } from '../outreach/fixtures.ts';
import {
  addPayoutAccount,
  business,
  completedStudy,
  eventually,
  insertPaidDraftStudy,
  tester,
  type Business,
} from '../payments/fixtures.ts';
import { startPaymentsHarness, type PaymentsHarness } from '../payments/harness.ts';
import { recordStruggle } from '../sessions/fixtures.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { runsOf } from './histories.ts';
import { sessionToken } from '../support/tokens.ts';

// Bhutan (BT): no other test recruits there (its testers are the only ones matching proposes).
const COUNTRY = 'BT';
const TESTERS = 8;
/** 1.25 x TESTERS are proposed (matching's over-booking); a few more stay eligible for refills. */
const ELIGIBLE = 12;
const WAIT_MS = 90_000;

interface Proposal {
  readonly proposalId: string;
  readonly testerId: string;
  readonly status: string;
}

const rows = {
  offers: (studyId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select(['id', 'tester_id', 'offer_status', 'session_id'])
        .where('study_id', '=', studyId)
        .execute(),
    ),
  offer: (outreachId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('outreach_messages')
        .select(['offer_status', 'session_id'])
        .where('id', '=', outreachId)
        .executeTakeFirstOrThrow(),
    ),
  sessions: (studyId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select(['id', 'status']).where('study_id', '=', studyId).execute(),
    ),
  payments: (studyId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('payments').select(['id', 'status']).where('study_id', '=', studyId).execute(),
    ),
  studyReports: (studyId: string) =>
    asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('agent_jobs')
        .select('id')
        .where('study_id', '=', studyId)
        .where('kind', '=', 'agent4')
        .execute(),
    ),
};

// The study workflow continues as new each time a run's history reaches its limit (here the lowest
// it takes), carrying what it knows: a study of eight testers goes from payment through matching,
// proposal and outreach approvals, offers (one declined, its place refilled), acceptances, sessions
// with Agent 2, the testers' confirmations and their payouts (the local provider), to completion,
// the study report and archiving, over at least three runs. Losing an approved offer, a
// confirmation, a freed place or a started offer in a switch leaves a tester without a session,
// the study short of its target, or an offer never withdrawn: the test then fails.
describe('a study workflow continuing as new', function () {
  this.timeout(240_000);
  let h: PaymentsHarness;
  let owner: Business;
  before(async function () {
    this.timeout(120_000);
    h = await startPaymentsHarness({ local: true });
    owner = await business('pro');
  });
  after(() => h?.stop());

  const post = (path: string, body: unknown = {}, token = owner.token) =>
    h.request('POST', path, { body, token });

  it('carries its state across runs: every session confirmed and paid, the study completed, reported and archived', async () => {
    const testers = new Map<string, Claims>();
    for (let i = 0; i < ELIGIBLE; i += 1) {
      const sub = await qualifiedTester(COUNTRY);
      await addPayoutAccount(sub, `acct_local_can_${i}_${sub.slice(0, 8)}`);
      testers.set(sub, { sub, role: 'tester', organization_id: null });
    }
    const studyId = await insertPaidDraftStudy(owner, {
      title: 'A study of many runs',
      country: COUNTRY,
      testers: TESTERS,
    });
    // Started as a study stored without a workflow is (signal-with-start), with the lowest limit.
    const study = await h.temporal.client.workflow.start(studyWorkflow, {
      workflowId: studyWorkflowId(studyId),
      taskQueue: h.taskQueue,
      args: [{ studyId, status: 'draft', historyLimit: MIN_STUDY_HISTORY_LIMIT }],
    });
    await study.signal(paymentConfirmedSignal);

    const proposals = async () =>
      (await h.request('GET', `/api/outreach/proposals?jobId=${studyId}&limit=100`, { token: owner.token }))
        .body.data as Proposal[];
    const pending = async () => (await proposals()).filter((p) => p.status === 'pending');
    const first = await eventually(async () => {
      const listed = await pending();
      return listed.length >= TESTERS + 2 && listed;
    }, 'proposals for the places and the over-booking');

    /** One tester's way from the proposal to a paid session; the tester who declines stops at the offer. */
    async function testerLife(proposal: Proposal, answer: 'accept' | 'decline'): Promise<string | undefined> {
      const accepted = await post(`/api/outreach/proposals/${proposal.proposalId}/approve`);
      assert.equal(accepted.status, 200, accepted.text);
      const { outreachId } = accepted.body.data as { outreachId: string };
      const approved = await post(`/api/outreach/${outreachId}/approve`);
      assert.equal(approved.status, 200, approved.text);
      await eventually(
        async () => (await rows.offer(outreachId)).offer_status === 'open',
        `offer ${outreachId} sent`,
        WAIT_MS,
      );
      const link = offerAnswerLink(h.config.http.baseUrl, h.config.auth.jwtSecret, outreachId, answer);
      const answered = await fetch(`${h.url}${link.slice(h.config.http.baseUrl.length)}`, { method: 'POST' });
      assert.equal(answered.status, 200, await answered.text());
      if (answer === 'decline') return undefined;
      const { session_id: sessionId } = await rows.offer(outreachId);
      assert.ok(sessionId, `offer ${outreachId} accepted with a session`);
      await recordStruggle(sessionId);
      const completed = await post(`/api/sessions/${sessionId}/complete`);
      assert.equal(completed.status, 200, completed.text);
      await eventually(
        async () =>
          (
            (await h.request('GET', `/api/sessions/${sessionId}`, { token: owner.token })).body.data as {
              status: string;
            }
          ).status === 'analyzed',
        `session ${sessionId} analyzed`,
        WAIT_MS,
      );
      const tester = await sessionToken(testers.get(proposal.testerId)!);
      const confirmed = await post(`/api/sessions/${sessionId}/confirm`, { rating: 5 }, tester);
      assert.equal(confirmed.status, 200, confirmed.text);
      return sessionId;
    }

    // The first proposal's tester declines; matching refills the place and that tester takes it.
    const [declining, ...accepting] = first;
    const lives = [
      testerLife(declining!, 'decline'),
      ...accepting.slice(0, TESTERS - 1).map((p) => testerLife(p, 'accept')),
    ];
    // The over-booked proposal left is skipped: its place is free again too.
    const skipped = await post(`/api/outreach/proposals/${accepting[TESTERS - 1]!.proposalId}/reject`, {
      reason: 'Enough testers',
    });
    assert.equal(skipped.status, 200, skipped.text);
    await lives[0];
    const known = new Set(first.map((p) => p.proposalId));
    const refill = await eventually(
      async () => (await pending()).find((p) => !known.has(p.proposalId)),
      'a proposal for the place the declined offer freed',
      WAIT_MS,
    );
    lives.push(testerLife(refill, 'accept'));
    const sessionIds = (await Promise.all(lives)).filter((id): id is string => id !== undefined);
    assert.equal(sessionIds.length, TESTERS);

    await eventually(
      async () => (await study.query(studyStatusQuery)) === 'completed',
      'study completed',
      WAIT_MS,
    );
    const sessions = await rows.sessions(studyId);
    assert.deepEqual(
      sessions.map((s) => s.status),
      sessions.map(() => 'confirmed'),
    );
    assert.deepEqual(new Set(sessions.map((s) => s.id)), new Set(sessionIds));
    const payments = await eventually(
      async () => {
        const listed = await rows.payments(studyId);
        return listed.length === TESTERS && listed.every((p) => p.status === 'paid') && listed;
      },
      'every payment paid',
      WAIT_MS,
    );
    assert.equal(payments.length, TESTERS);
    // The report step after completion (it may itself have moved to a later run) queues Agent 4.
    await eventually(
      async () => (await rows.studyReports(studyId)).length === 1,
      'the study report',
      WAIT_MS,
    );

    // Archiving withdraws every offer the study started in any run: the accepted ones' reminders stop.
    const archived = await h.request('PATCH', `/api/jobs/${studyId}`, {
      body: { status: 'archived' },
      token: owner.token,
    });
    assert.equal(archived.status, 200, archived.text);
    await study.result();
    const offers = await rows.offers(studyId);
    assert.equal(offers.filter((o) => o.offer_status === 'accepted').length, TESTERS);
    assert.equal(offers.filter((o) => o.offer_status === 'declined').length, 1);
    for (const offer of offers) {
      const handle = h.temporal.client.workflow.getHandle(offerWorkflowId(offer.id));
      await eventually(
        async () => (await handle.describe()).status.name === 'COMPLETED',
        `offer ${offer.id} ended`,
        WAIT_MS,
      );
    }

    const runs = await runsOf(h.temporal.client, studyWorkflowId(studyId));
    assert.ok(runs.length >= 3, `continued as new at least twice: ${runs.length} runs`);
    assert.deepEqual(
      runs.map((run) => run.continuedAsNew),
      runs.map((_, i) => i < runs.length - 1),
    );
    // Each run but the last reached the limit and stopped soon after it.
    for (const run of runs.slice(0, -1)) {
      assert.ok(run.events >= MIN_STUDY_HISTORY_LIMIT, `run ${run.runId}: ${run.events} events`);
      assert.ok(run.events < 3 * MIN_STUDY_HISTORY_LIMIT, `run ${run.runId}: ${run.events} events`);
    }
  });
});

// A signal that reaches the run while it drains (its history past the limit, a check against the
// target still running) is carried to the next run: the next run completes the study. The first
// check is held until the signal is in, and answers "not yet", so only the carried count can
// complete the study.
describe('a study run continuing as new with a confirmation that came while it drained', function () {
  this.timeout(120_000);
  const taskQueue = `study-can-${process.pid}`;
  let worker: Worker;
  let running: Promise<void>;
  let release: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let checks = 0;

  before(async function () {
    this.timeout(60_000);
    const env = await temporalEnvironment();
    const activities = createActivities({ db: serviceDatabase() });
    worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: {
        ...activities,
        async studyTargetReached(input: { studyId: string }) {
          checks += 1;
          if (checks > 1) return activities.studyTargetReached(input);
          await held;
          return false;
        },
      },
    });
    running = worker.run();
  });
  after(async () => {
    release();
    worker?.shutdown();
    await running;
  });

  it('the next run checks the carried confirmation and completes the study', async () => {
    const owner = await business('pro');
    const people = [await tester(), await tester()];
    // Both sessions confirmed in the records; the workflow has not counted them yet.
    const { jobId, sessionIds } = await completedStudy(owner, people, undefined, 'active');
    const { client } = await temporalEnvironment();
    const study = await client.workflow.start(studyWorkflow, {
      workflowId: studyWorkflowId(jobId),
      taskQueue,
      args: [{ studyId: jobId, status: 'active', historyLimit: MIN_STUDY_HISTORY_LIMIT }],
    });
    await study.signal(sessionConfirmedSignal, sessionIds[0]!);
    await eventually(() => Promise.resolve(checks === 1), 'the first check under way');
    // The history passes the limit while the check runs: the run drains.
    while ((await study.describe()).historyLength < MIN_STUDY_HISTORY_LIMIT) {
      await study.signal(sessionReportedSignal, sessionIds[0]!);
    }
    await study.signal(sessionConfirmedSignal, sessionIds[1]!);
    assert.equal(await study.query(studyStatusQuery), 'active');
    // The draining run takes no new update, so a stream of them cannot hold it past its limit: it
    // refuses with STUDY_RUN_SWITCHING (no event in its history), and the commands' way of sending
    // an update sends it again until the next run takes it.
    const length = (await study.describe()).historyLength;
    await assert.rejects(study.executeUpdate(changeStudyStatusUpdate, { args: ['pause'] }), (error) =>
      Boolean(failureOfType(error, STUDY_RUN_SWITCHING)),
    );
    assert.equal((await study.describe()).historyLength, length, 'the refused update left no event');
    const paused = updateOrConflict(INVALID_STUDY_TRANSITION, () =>
      study.executeUpdate(changeStudyStatusUpdate, { args: ['pause'] }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await study.query(studyStatusQuery), 'active', 'no run has taken the pause yet');
    release();
    // The next run answers it: paused, or refused once that run has completed the study (its first
    // task checks the carried confirmation, which may come first).
    const answer = await paused.catch((error: unknown) => {
      if (error instanceof ApiError) return error.message;
      throw error;
    });
    assert.ok(['paused', 'Study must be active to pause (it is completed)'].includes(answer), answer);
    assert.equal((await runsOf(client, studyWorkflowId(jobId))).length, 2, 'the next run took the pause');

    await eventually(async () => (await study.query(studyStatusQuery)) === 'completed', 'study completed');
    assert.equal(checks, 2);
    const runs = await runsOf(client, studyWorkflowId(jobId));
    assert.equal(runs.length, 2);
    assert.equal(await study.executeUpdate(changeStudyStatusUpdate, { args: ['archive'] }), 'archived');
    await study.result();
  });
});
