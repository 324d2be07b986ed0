import assert from 'node:assert/strict';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { asSystem } from '../../db/doors.ts';
import { createServiceWorker } from '../../workers/service-worker.ts';
import {
  changeSessionStatusUpdate,
  sessionStatusQuery,
  sessionWorkflowId,
  type SessionWorkflowInput,
} from '../../workflows/messages/session.ts';
import { sessionWorkflow } from '../../workflows/session.ts';
import type { TestApi } from '../support/api.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import {
  activeStudy,
  eligibleTester,
  onTimeSkippingServer,
  type SessionRead,
  startSession,
  waitFor,
} from './fixtures.ts';

describe('session time limit', () => {
  let api: TestApi;
  let env: TestWorkflowEnvironment;
  onTimeSkippingServer((suite) => ({ api, env } = suite));

  it("the API starts the session's workflow with the study's maxDurationMinutes and the session's start", async () => {
    const business = await sessionToken((await createBusiness()).claims);
    const jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      settings: { maxDurationMinutes: 7 },
    });
    const { sessionId } = await startSession(api, business, jobId);
    const read = (await api.request('GET', `/api/sessions/${sessionId}`, { token: business })).body
      .data as SessionRead;
    const handle = (await temporalEnvironment()).client.workflow.getHandle(sessionWorkflowId(sessionId));
    const [started] = (await handle.fetchHistory()).events ?? [];
    const payload = started?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    assert.ok(payload, 'the workflow was started with an input');
    const input = defaultPayloadConverter.fromPayload<SessionWorkflowInput>(payload);
    assert.deepEqual(input, {
      sessionId,
      studyId: jobId,
      startedAt: read.startedAt,
      maxDurationMinutes: 7,
      status: 'active',
    });
  });

  for (const pausedAfterMinutes of [undefined, 10]) {
    const title =
      pausedAfterMinutes === undefined
        ? 'a session still running at maxDurationMinutes is completed by the durable timer, at the limit'
        : 'a session paused before the limit is still completed by the timer, at the limit';
    it(title, async () => {
      const business = await sessionToken((await createBusiness()).claims);
      const jobId = await activeStudy(api, business);
      const tester = await eligibleTester();
      const created = await api.request('POST', '/api/sessions', {
        body: { jobId, testerId: tester.sub },
        token: business,
      });
      const { sessionId } = created.body.data as { sessionId: string };
      // The session starts now on the time-skipping server's clock.
      const startedAt = new Date(await env.currentTimeMs());
      await asSystem(testDatabase(), (tx) =>
        tx.updateTable('sessions').set({ started_at: startedAt }).where('id', '=', sessionId).execute(),
      );
      const row = () =>
        asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('sessions')
            .select(['status', 'completed_at', 'duration_seconds'])
            .where('id', '=', sessionId)
            .executeTakeFirstOrThrow(),
        );

      const taskQueue = `session-timer-${process.pid}`;
      const worker = await createServiceWorker({
        connection: env.nativeConnection,
        namespace: env.namespace ?? 'default',
        taskQueue,
        workflowBundle: await workflowBundle(),
        db: serviceDatabase(),
      });
      await worker.runUntil(async () => {
        const handle = await env.client.workflow.start(sessionWorkflow, {
          workflowId: `session-timer:${sessionId}`,
          taskQueue,
          args: [{ sessionId, studyId: jobId, startedAt: startedAt.toISOString(), maxDurationMinutes: 30 }],
        });
        if (pausedAfterMinutes !== undefined) {
          await env.sleep(pausedAfterMinutes * 60_000);
          const paused = await handle.executeUpdate(changeSessionStatusUpdate, {
            args: [{ action: 'pause' }],
          });
          assert.equal(paused.status, 'paused');
        }
        const running = pausedAfterMinutes === undefined ? 'active' : 'paused';
        await env.sleep((29 - (pausedAfterMinutes ?? 0)) * 60_000);
        assert.equal(await handle.query(sessionStatusQuery), running);
        assert.equal((await row()).status, running);
        await env.sleep('2 minutes');
        await waitFor(async () => (await handle.query(sessionStatusQuery)) === 'analyzed');
      });
      const { status, completed_at, duration_seconds } = await row();
      assert.equal(status, 'analyzed');
      assert.equal(completed_at?.toISOString(), new Date(startedAt.getTime() + 30 * 60_000).toISOString());
      assert.equal(duration_seconds, 30 * 60);
    });
  }
});
