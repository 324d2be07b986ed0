import assert from 'node:assert/strict';
import type { Client, WorkflowClient } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { asSystem, type Claims } from '../../db/doors.ts';
import { sessionWorkflowId, type SessionWorkflowInput } from '../../workflows/messages/session.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';
import { activeStudy, eligibleTester, waitForSessionStatus, type SessionRead } from './fixtures.ts';

/** The suite's client, except that the next `failures` session workflow starts fail (Temporal unreachable). */
function clientFailingSessionStarts(client: Client, control: { failures: number }): Client {
  const workflow = new Proxy(client.workflow, {
    get(target, property) {
      if (property === 'start') {
        return (...args: Parameters<WorkflowClient['start']>) => {
          if (args[1].workflowId.startsWith('session:') && control.failures > 0) {
            control.failures -= 1;
            return Promise.reject(new Error('Temporal is unreachable'));
          }
          return target.start(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return Object.create(client, { workflow: { value: workflow } }) as Client;
}

describe('a session whose workflow failed to start after its row was committed', () => {
  let api: TestApi;
  let business: string;
  let jobId: string;
  const control = { failures: 0 };

  before(async () => {
    const { client } = await temporalEnvironment();
    api = await startTestApi({ temporal: clientFailingSessionStarts(client, control) });
    business = await sessionToken((await createBusiness('pro')).claims);
    jobId = await activeStudy(api, business, {
      ...validStudyBody(),
      targeting: { countries: ['GB'], devices: ['desktop'], testerCount: 10 },
      settings: { maxDurationMinutes: 45 },
    });
  });
  after(() => api.stop());

  const handleOf = async (sessionId: string) =>
    (await temporalEnvironment()).client.workflow.getHandle(sessionWorkflowId(sessionId));
  const create = (tester: Claims) =>
    api.request('POST', '/api/sessions', { body: { jobId, testerId: tester.sub }, token: business });
  /** A create whose row commits and whose workflow start fails: the caller saw a 500. */
  const orphan = async (): Promise<{ tester: Claims; sessionId: string }> => {
    const tester = await eligibleTester();
    control.failures = 1;
    const created = await create(tester);
    assert.equal(created.status, 500, created.text);
    const { id } = await asSystem(testDatabase(), (tx) =>
      tx.selectFrom('sessions').select('id').where('tester_id', '=', tester.sub).executeTakeFirstOrThrow(),
    );
    await assert.rejects((await handleOf(id)).describe(), /not found/i);
    return { tester, sessionId: id };
  };

  it("the create's retry answers 409 and starts the missing workflow from the session's start and time limit", async () => {
    const { tester, sessionId } = await orphan();
    const retry = await create(tester);
    assert.equal(retry.status, 409, retry.text);
    assert.equal(retry.body.error, 'The tester already has a session on this study');

    const handle = await handleOf(sessionId);
    assert.equal((await handle.describe()).status.name, 'RUNNING');
    const [started] = (await handle.fetchHistory()).events ?? [];
    const input = defaultPayloadConverter.fromPayload<SessionWorkflowInput>(
      started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!,
    );
    const read = (await api.request('GET', `/api/sessions/${sessionId}`, { token: business })).body
      .data as SessionRead;
    assert.deepEqual(input, {
      sessionId,
      studyId: jobId,
      startedAt: read.startedAt,
      maxDurationMinutes: 45,
      status: 'active',
    });
  });

  it('a status change of the orphaned session starts its workflow and lands instead of a 500', async () => {
    const { sessionId } = await orphan();
    const paused = await api.request('PATCH', `/api/sessions/${sessionId}`, {
      body: { status: 'paused' },
      token: business,
    });
    assert.equal(paused.status, 200, paused.text);
    assert.equal((paused.body.data as SessionRead).status, 'paused');
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(done.status, 200, done.text);
    await waitForSessionStatus(api, sessionId, business, 'analyzed');
  });
});
