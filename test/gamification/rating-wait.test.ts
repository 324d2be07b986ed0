import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { asSystem } from '../../db/doors.ts';
import { gamificationWorkflow } from '../../workflows/gamification.ts';
import { gamificationWorkflowId, sessionRatedSignal } from '../../workflows/messages/gamification.ts';
import { insertStudy } from '../auth/helpers.ts';
import { waitFor } from '../sessions/fixtures.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { serviceDatabase, testDatabase } from '../support/database.ts';
import { timeSkippingEnvironment, workflowBundle } from '../support/temporal.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A confirmed session completed within the study's hour, rated `stars` by the organization or not. */
async function confirmedSession(stars: number | null): Promise<string> {
  const { organizationId } = await createBusiness('pro');
  const tester = await createTester();
  const studyId = await insertStudy(organizationId, { status: 'active' });
  const started = new Date(Date.now() - DAY_MS);
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('sessions')
      .values({
        organization_id: organizationId,
        study_id: studyId,
        tester_id: tester.sub,
        status: 'confirmed',
        started_at: started,
        completed_at: new Date(started.getTime() + 20 * 60_000),
        duration_seconds: 20 * 60,
        confirmed_at: new Date(),
        ...(stars === null ? {} : { business_rating: stars, business_rated_at: new Date() }),
      })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return row.id;
}

const evaluation = (sessionId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('gamification_evaluations')
      .select('points_awarded')
      .where('session_id', '=', sessionId)
      .executeTakeFirst(),
  );

// The evaluation's own workflow on the time-skipping server: its 7-day wait passes by skipping.
describe('gamification:<sessionId>: the evaluation waits for the rating, or 7 days without one', function () {
  this.timeout(120_000);
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let running: Promise<void>;
  const taskQueue = `gamification-${process.pid}`;

  before(async () => {
    env = await timeSkippingEnvironment();
    worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: env.namespace ?? 'default',
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({ db: serviceDatabase() }),
    });
    running = worker.run();
  });
  after(async () => {
    worker?.shutdown();
    await running;
    await env?.teardown();
  });

  it('rated: evaluated at once with the rating', async () => {
    const sessionId = await confirmedSession(5);
    const handle = await env.client.workflow.start(gamificationWorkflow, {
      taskQueue,
      workflowId: gamificationWorkflowId(sessionId),
      args: [{ sessionId }],
    });
    assert.equal(await evaluation(sessionId), undefined, 'nothing before the rating or the wait');
    // The signal alone: no time skips while the test waits (only result() and sleep() skip).
    await handle.signal(sessionRatedSignal);
    await waitFor(async () => (await evaluation(sessionId)) !== undefined);
    await handle.result();
    // Completed 50, five stars 30, within the study's hour 10.
    assert.equal((await evaluation(sessionId))?.points_awarded, 90);
  });

  it('never rated: evaluated after 7 days, the rating paying nothing', async () => {
    const sessionId = await confirmedSession(null);
    const handle = await env.client.workflow.start(gamificationWorkflow, {
      taskQueue,
      workflowId: gamificationWorkflowId(sessionId),
      args: [{ sessionId }],
    });
    await env.sleep(6 * DAY_MS);
    assert.equal(await evaluation(sessionId), undefined, 'still waiting on the sixth day');
    await handle.result();
    assert.equal((await evaluation(sessionId))?.points_awarded, 60);
  });
});
