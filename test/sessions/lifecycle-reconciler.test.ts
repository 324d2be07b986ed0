import assert from 'node:assert/strict';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import { startReceiver, subscribe } from '../webhooks/receiver.ts';
import { randomUUID } from 'node:crypto';
import type { ScheduleHandle } from '@temporalio/client';
import { defaultPayloadConverter, WorkflowNotFoundError } from '@temporalio/common';
import { asSystem } from '../../db/doors.ts';
import { queueNotification } from '../../db/repositories/notification-outbox.ts';
import { SECRET_PLACEHOLDER } from '../../lib/outbox-messages.ts';
import { ensureLifecycleSchedule } from '../../workers/lifecycle-schedule.ts';
import { offerWorkflowId } from '../../workflows/messages/offer.ts';
import type { lifecycleReconcileWorkflow, ReconcileSummary } from '../../workflows/reconcile.ts';
import {
  sessionStatusQuery,
  sessionWorkflowId,
  type SessionWorkflowInput,
} from '../../workflows/messages/session.ts';
import {
  studyStatusQuery,
  studyWorkflowId,
  type StudyWorkflowInput,
} from '../../workflows/messages/study.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { temporalEnvironment, TEST_TASK_QUEUE } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { eligibleTester, startSession, waitFor } from './fixtures.ts';
import {
  minutesAgo,
  openOffer,
  sessionWithoutWorkflow,
  startInputOf,
  studyWithoutWorkflow,
} from './lifecycle-fixtures.ts';

const MINUTE = 60_000;

/**
 * The lifecycle reconciler: a row committed by the API whose workflow start failed, and that
 * nobody acts on again, gets its workflow from the Schedule within minutes, started from what the
 * row records.
 */
describe('the lifecycle reconciler schedule', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let schedule: ScheduleHandle;
  const scheduleId = `lifecycle-reconcile-test-${process.pid}`;

  const handleOf = async (workflowId: string) =>
    (await temporalEnvironment()).client.workflow.getHandle(workflowId);
  const sessionRow = (id: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    );
  const studySeen = async (id: string) =>
    (
      await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('studies').select('workflow_seen_at').where('id', '=', id).executeTakeFirstOrThrow(),
      )
    ).workflow_seen_at;
  /** Triggers the suite's copy of the schedule once and answers that run's summary. */
  const runSchedule = async (): Promise<ReconcileSummary> => {
    const env = await temporalEnvironment();
    const before = (await schedule.describe()).info.recentActions.length;
    await schedule.trigger();
    await waitFor(async () => (await schedule.describe()).info.recentActions.length > before);
    const { workflow } = (await schedule.describe()).info.recentActions.at(-1)!.action;
    return env.client.workflow
      .getHandle<typeof lifecycleReconcileWorkflow>(workflow.workflowId, workflow.firstExecutionRunId)
      .result();
  };

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    const env = await temporalEnvironment();
    // Paused: runs happen only when a test triggers them.
    await ensureLifecycleSchedule(env.client, TEST_TASK_QUEUE, { scheduleId, paused: true });
    schedule = env.client.schedule.getHandle(scheduleId);
  });
  after(async () => {
    await schedule?.delete();
    await api.stop();
  });

  it('is created once at every worker start: every 5 minutes, never overlapping', async () => {
    const env = await temporalEnvironment();
    await ensureLifecycleSchedule(env.client, TEST_TASK_QUEUE, { scheduleId, paused: true });
    const description = await schedule.describe();
    assert.deepEqual(
      description.spec.intervals?.map((i) => i.every),
      [5 * MINUTE],
    );
    assert.equal(description.policies.overlap, 'SKIP');
    assert.ok(description.action.type === 'startWorkflow');
    assert.deepEqual(
      [description.action.workflowType, description.action.taskQueue],
      ['lifecycleReconcileWorkflow', TEST_TASK_QUEUE],
    );
  });

  it('starts the missing workflows of live studies and sessions from their recorded state, honouring the time limit from startedAt', async () => {
    // A study and its sessions written minutes ago, whose workflow starts all failed.
    const jobId = await studyWithoutWorkflow(business.organizationId, {
      status: 'active',
      testerCount: 10,
      maxDurationMinutes: 60,
      createdAt: minutesAgo(70),
    });
    const overdue = await sessionWithoutWorkflow(jobId, (await eligibleTester()).sub, {
      startedAt: minutesAgo(61),
      createdAt: minutesAgo(61),
    });
    const paused = await sessionWithoutWorkflow(jobId, (await eligibleTester()).sub, {
      status: 'paused',
      startedAt: minutesAgo(5),
      createdAt: minutesAgo(5),
    });
    // Committed a moment ago: its request may still be starting the workflow, so it is left alone.
    const young = await sessionWithoutWorkflow(jobId, (await eligibleTester()).sub);
    // A session with its workflow running (on another study: creating it starts the study's
    // workflow too): looked at, marked, and not started again.
    const otherStudy = await studyWithoutWorkflow(business.organizationId, {
      status: 'active',
      testerCount: 10,
    });
    const healthy = await startSession(api, await sessionToken(business.claims), otherStudy);
    await asSystem(testDatabase(), (tx) =>
      tx
        .updateTable('sessions')
        .set({ created_at: minutesAgo(5) })
        .where('id', '=', healthy.sessionId)
        .execute(),
    );
    const healthyRun = (await (await handleOf(sessionWorkflowId(healthy.sessionId))).describe()).runId;
    for (const id of [
      studyWorkflowId(jobId),
      ...[overdue, paused, young].map((s) => sessionWorkflowId(s.id)),
    ]) {
      await assert.rejects((await handleOf(id)).describe(), WorkflowNotFoundError, id);
    }

    const summary = await runSchedule();
    assert.ok(summary.studiesStarted >= 1, JSON.stringify(summary));
    assert.ok(summary.sessionsStarted >= 2, JSON.stringify(summary));

    // The study, from the status its row records.
    const study = await handleOf(studyWorkflowId(jobId));
    assert.equal(await study.query(studyStatusQuery), 'active');
    assert.deepEqual(await startInputOf<StudyWorkflowInput>(study), { studyId: jobId, status: 'active' });
    assert.ok(await studySeen(jobId));

    // The overdue session: its time limit counts from its start, so it completes at once, at
    // startedAt + 60 minutes, and Agent 2 takes it from there.
    const overdueInput = await startInputOf<SessionWorkflowInput>(
      await handleOf(sessionWorkflowId(overdue.id)),
    );
    assert.deepEqual(overdueInput, {
      sessionId: overdue.id,
      studyId: jobId,
      startedAt: overdue.started_at.toISOString(),
      maxDurationMinutes: 60,
      status: 'active',
    });
    await waitFor(async () => (await sessionRow(overdue.id)).completed_at !== null);
    const completed = await sessionRow(overdue.id);
    assert.equal(completed.completed_at!.getTime(), overdue.started_at.getTime() + 60 * MINUTE);
    assert.equal(completed.duration_seconds, 3600);
    assert.ok(completed.workflow_seen_at);

    // The paused session stays paused, and its workflow answers for it.
    const pausedHandle = await handleOf(sessionWorkflowId(paused.id));
    assert.equal(await pausedHandle.query(sessionStatusQuery), 'paused');
    assert.equal((await sessionRow(paused.id)).status, 'paused');
    const resumed = await api.request('PATCH', `/api/sessions/${paused.id}`, {
      body: { status: 'active' },
      token: await sessionToken(business.claims),
    });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(await pausedHandle.query(sessionStatusQuery), 'active');

    // The young session is not touched; the healthy one is marked and keeps its run.
    await assert.rejects((await handleOf(sessionWorkflowId(young.id))).describe(), WorkflowNotFoundError);
    assert.equal((await sessionRow(young.id)).workflow_seen_at, null);
    assert.ok((await sessionRow(healthy.sessionId)).workflow_seen_at);
    assert.equal((await (await handleOf(sessionWorkflowId(healthy.sessionId))).describe()).runId, healthyRun);
  });

  it('erases the screen recordings kept past their retention (90 days after their last chunk)', async () => {
    const jobId = await studyWithoutWorkflow(business.organizationId, { status: 'active' });
    const sessions = [
      await sessionWithoutWorkflow(jobId, (await eligibleTester()).sub, { status: 'paused' }),
      await sessionWithoutWorkflow(jobId, (await eligibleTester()).sub, { status: 'paused' }),
    ];
    const [expired, kept] = sessions.map((session) => session.id) as [string, string];
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('session_recording_chunks')
        .values(
          [expired, kept].map((sessionId) => ({
            session_id: sessionId,
            seq: 0,
            started_at: new Date(),
            ended_at: new Date(),
            event_count: 1,
            has_full_snapshot: true,
            data: Buffer.from('[]'),
            byte_length: 2,
            received_at: minutesAgo(sessionId === expired ? 91 * 24 * 60 : 89 * 24 * 60),
          })),
        )
        .execute(),
    );
    const summary = await runSchedule();
    assert.ok(summary.recordingsErased >= 1, JSON.stringify(summary));
    const left = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_recording_chunks')
        .select('session_id')
        .where('session_id', 'in', [expired, kept])
        .execute(),
    );
    assert.deepEqual(
      left.map((row) => row.session_id),
      [kept],
    );
  });

  it('starts the delivery of a message the API queued but never handed over (a recovery link), and leaves a young one to the API', async () => {
    const queue = (kind: string, createdAt: Date) =>
      asSystem(testDatabase(), (tx) =>
        queueNotification(
          tx,
          {
            channel: 'email',
            recipient: `reconciled-${randomUUID()}@example.com`,
            userId: null,
            kind,
            subject: 'Your sign-in link',
            body: `https://usability.example/login/magic-link?token=${SECRET_PLACEHOLDER}`,
            secret: 'a-one-time-token',
          },
          createdAt,
        ),
      );
    const stranded = await queue('magic_link', minutesAgo(5));
    const young = await queue('password_reset', new Date());
    const summary = await runSchedule();
    assert.ok((summary.messagesStarted ?? 0) >= 1, JSON.stringify(summary));
    const rowOf = (id: string) =>
      asSystem(testDatabase(), (tx) =>
        tx.selectFrom('notification_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      );
    await waitFor(async () => (await rowOf(stranded)).status === 'sent');
    assert.equal(
      (await rowOf(stranded)).payload.secret,
      undefined,
      'the token leaves the outbox with the mail',
    );
    const left = await rowOf(young);
    assert.deepEqual(
      [left.status, left.attempts],
      ['pending', 0],
      'within 2 minutes the API may still start it',
    );
  });

  it('starts a webhook delivery recorded but never started (its worker died first), and leaves a young one to its recorder', async () => {
    const receiver = await startReceiver();
    try {
      await subscribe(business, receiver.url, ['study.activated'], `whsec_${'r'.repeat(43)}`);
      const record = (occurredAt: Date) =>
        asSystem(testDatabase(), async (tx) => {
          const studyId = randomUUID();
          const [deliveryId] = await recordWebhookEvent(tx, {
            organizationId: business.organizationId,
            type: 'study.activated',
            object: { studyId, status: 'active' },
            dedupeKey: `study.activated:${studyId}`,
            occurredAt,
          });
          return deliveryId!;
        });
      const stranded = await record(minutesAgo(5));
      const young = await record(new Date());
      const summary = await runSchedule();
      assert.ok((summary.webhookDeliveriesStarted ?? 0) >= 1, JSON.stringify(summary));
      const [delivered] = await receiver.waitFor(1);
      assert.equal(delivered!.body.type, 'study.activated');
      const rowOf = (id: string) =>
        asSystem(testDatabase(), (tx) =>
          tx.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
        );
      await waitFor(async () => (await rowOf(stranded)).status === 'delivered');
      const left = await rowOf(young);
      assert.deepEqual(
        [left.status, left.attempts],
        ['pending', 0],
        'within 2 minutes its recorder may still start it',
      );
      assert.equal(receiver.received.length, 1);
    } finally {
      await receiver.stop();
    }
  });

  it('closes an open offer whose workflow is gone (withdrawn, or expired past its time) and tells its study; a running one is left', async () => {
    const env = await temporalEnvironment();
    const jobId = await studyWithoutWorkflow(business.organizationId, {
      status: 'active',
      testerCount: 3,
      createdAt: minutesAgo(30),
    });
    const terminated = await openOffer(jobId, (await eligibleTester()).sub, { sentAt: minutesAgo(20) });
    const lapsed = await openOffer(jobId, (await eligibleTester()).sub, {
      sentAt: minutesAgo(60 * 49),
      expiresAt: minutesAgo(60),
    });
    const live = await openOffer(jobId, (await eligibleTester()).sub, { sentAt: minutesAgo(20) });
    const young = await openOffer(jobId, (await eligibleTester()).sub);
    // One offer's workflow was terminated by hand; another's runs (waiting to be sent, far ahead).
    const gone = await env.client.workflow.start('offerWorkflow', {
      taskQueue: TEST_TASK_QUEUE,
      workflowId: offerWorkflowId(terminated),
      args: [
        {
          outreachId: terminated,
          studyId: jobId,
          scheduledSendAt: new Date(Date.now() + 60 * MINUTE).toISOString(),
        },
      ],
    });
    await gone.terminate('by hand');
    const running = await env.client.workflow.start('offerWorkflow', {
      taskQueue: TEST_TASK_QUEUE,
      workflowId: offerWorkflowId(live),
      args: [
        {
          outreachId: live,
          studyId: jobId,
          scheduledSendAt: new Date(Date.now() + 60 * MINUTE).toISOString(),
        },
      ],
    });
    try {
      const summary = await runSchedule();
      assert.ok((summary.offersClosed ?? 0) >= 2, JSON.stringify(summary));
      const offerStatus = async (id: string) =>
        (
          await asSystem(testDatabase(), (tx) =>
            tx
              .selectFrom('outreach_messages')
              .select('offer_status')
              .where('id', '=', id)
              .executeTakeFirstOrThrow(),
          )
        ).offer_status;
      assert.deepEqual(
        [
          await offerStatus(terminated),
          await offerStatus(lapsed),
          await offerStatus(live),
          await offerStatus(young),
        ],
        ['withdrawn', 'expired', 'open', 'open'],
      );
      // The study (its workflow started by the same run) was told each place is free.
      const history = await (await handleOf(studyWorkflowId(jobId))).fetchHistory();
      const told = (history.events ?? [])
        .filter((event) => event.workflowExecutionSignaledEventAttributes?.signalName === 'offerClosed')
        .map((event) =>
          defaultPayloadConverter.fromPayload(
            event.workflowExecutionSignaledEventAttributes!.input!.payloads![0]!,
          ),
        );
      assert.deepEqual(new Set(told), new Set([terminated, lapsed]));
    } finally {
      await running.terminate('test over');
    }
  });

  it('a row it has seen is not looked at again', async () => {
    const jobId = await studyWithoutWorkflow(business.organizationId, {
      status: 'draft',
      createdAt: minutesAgo(10),
    });
    await runSchedule();
    const seen = await studySeen(jobId);
    assert.ok(seen);
    assert.equal(await (await handleOf(studyWorkflowId(jobId))).query(studyStatusQuery), 'draft');
    await runSchedule();
    assert.deepEqual(await studySeen(jobId), seen);
  });
});
