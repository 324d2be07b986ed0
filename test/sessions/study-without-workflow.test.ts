import assert from 'node:assert/strict';
import { WorkflowNotFoundError } from '@temporalio/common';
import { ensureSessionWorkflow } from '../../clients/temporal.ts';
import { asSystem } from '../../db/doors.ts';
import { sessionWorkflowId } from '../../workflows/messages/session.ts';
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
import { eligibleTester, recordStruggle, startSession, waitFor, waitForSessionStatus } from './fixtures.ts';
import { sessionWithoutWorkflow, startInputOf, studyWithoutWorkflow } from './lifecycle-fixtures.ts';

/**
 * The seeded demo study and a study whose workflow start failed after its row was committed have
 * no workflow. Nothing sent to it may be dropped: sessions are created on it, and their
 * confirmations reach it, by starting it from the status the row records.
 */
describe('a study stored without a workflow', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let token: string;

  const studyHandle = async (jobId: string) =>
    (await temporalEnvironment()).client.workflow.getHandle(studyWorkflowId(jobId));
  const studyStatus = async (jobId: string) =>
    (
      await asSystem(testDatabase(), (tx) =>
        tx.selectFrom('studies').select('status').where('id', '=', jobId).executeTakeFirstOrThrow(),
      )
    ).status;
  /** A session of the study whose workflow the test starts itself (the study's is not touched). */
  const sessionOf = async (jobId: string) => {
    const tester = await eligibleTester();
    const session = await sessionWithoutWorkflow(jobId, tester.sub);
    const env = await temporalEnvironment();
    await ensureSessionWorkflow(env.client, TEST_TASK_QUEUE, {
      id: session.id,
      study_id: jobId,
      status: 'active',
      started_at: session.started_at,
      max_duration_minutes: 60,
    });
    return { sessionId: session.id, testerToken: await sessionToken(tester) };
  };
  /** Completes the session, waits for Agent 2 and confirms as its tester. */
  const confirmed = async ({ sessionId, testerToken }: { sessionId: string; testerToken: string }) => {
    await recordStruggle(sessionId);
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, { body: {}, token });
    assert.equal(done.status, 200, done.text);
    await waitForSessionStatus(api, sessionId, token, 'analyzed');
    const confirm = await api.request('POST', `/api/sessions/${sessionId}/confirm`, {
      body: { rating: 4 },
      token: testerToken,
    });
    assert.equal(confirm.status, 200, confirm.text);
  };

  before(async () => {
    api = await startTestApi();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
  });
  after(() => api.stop());

  it('POST /api/sessions starts its workflow from the recorded status before creating the session', async () => {
    const jobId = await studyWithoutWorkflow(business.organizationId, { status: 'active', testerCount: 5 });
    const handle = await studyHandle(jobId);
    await assert.rejects(handle.describe(), WorkflowNotFoundError);

    await startSession(api, token, jobId);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    assert.equal(await handle.query(studyStatusQuery), 'active');
    assert.deepEqual(await startInputOf<StudyWorkflowInput>(handle), { studyId: jobId, status: 'active' });
  });

  it('completes when its target number of sessions is confirmed: the confirmation starts its workflow', async () => {
    const jobId = await studyWithoutWorkflow(business.organizationId, { status: 'active', testerCount: 1 });
    const session = await sessionOf(jobId);
    const handle = await studyHandle(jobId);
    await assert.rejects(handle.describe(), WorkflowNotFoundError);

    await confirmed(session);
    await waitFor(async () => (await studyStatus(jobId)) === 'completed');
    // The row is written before the workflow's state moves (the activity records, then the
    // workflow takes its result), so the query follows the row a moment later.
    await waitFor(async () => (await handle.query(studyStatusQuery)) === 'completed');
    // Started by the confirmation, from where the row stood.
    assert.deepEqual(await startInputOf<StudyWorkflowInput>(handle), { studyId: jobId, status: 'active' });
  });

  it('an archived study is not brought back to life by a confirmation', async () => {
    const jobId = await studyWithoutWorkflow(business.organizationId, { status: 'archived', testerCount: 1 });
    const session = await sessionOf(jobId);
    await confirmed(session);
    // The session workflow has sent both of its signals to the study once it ends.
    const env = await temporalEnvironment();
    await env.client.workflow.getHandle(sessionWorkflowId(session.sessionId)).result();
    await assert.rejects((await studyHandle(jobId)).describe(), WorkflowNotFoundError);
    assert.equal(await studyStatus(jobId), 'archived');
  });
});
