import assert from 'node:assert/strict';
import { asSystem } from '../../db/doors.ts';
import { AI_RETRY_SCHEDULE_ID } from '../../workflows/messages/ai-retry.ts';
import { ensureAiRetrySchedule } from '../../workers/ai-retry-schedule.ts';
import { startTestApi, type TestApi, type TestResponse } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment, TEST_TASK_QUEUE } from '../support/temporal.ts';

const CRON_SECRET = 'cron-secret-0123456789abcdef';
const SERVICE_TOKENS = ['first-service-token-0001', 'second-service-token-0002'];

function assertRefused(response: TestResponse, status: number, error: string | RegExp): void {
  assert.equal(response.status, status, response.text);
  assert.equal(response.body.success, false);
  assert.equal(response.body.data, null);
  assert.equal(response.body.metadata, null);
  if (typeof error === 'string') assert.equal(response.body.error, error);
  else assert.match(response.body.error ?? '', error);
}

describe('scheduled-job and server-to-server endpoints (CRON_SECRET, SERVICE_TOKENS)', () => {
  let api: TestApi;
  let unconfigured: TestApi;
  before(async () => {
    api = await startTestApi({ env: { CRON_SECRET, SERVICE_TOKENS: SERVICE_TOKENS.join(',') } });
    unconfigured = await startTestApi({ worker: false });
  });
  after(async () => {
    await api.stop();
    await unconfigured.stop();
  });

  describe('POST /api/cron/:job (Authorization: Bearer <CRON_SECRET>)', () => {
    const cron = (job: string, authorization?: string, on = api) =>
      on.request(
        'POST',
        `/api/cron/${job}`,
        authorization ? { headers: { Authorization: authorization } } : {},
      );

    after(async () => {
      const { client } = await temporalEnvironment();
      await client.schedule
        .getHandle(AI_RETRY_SCHEDULE_ID)
        .delete()
        .catch(() => undefined);
    });

    it('answers 401 in the envelope without the secret, with another one, or in another scheme', async () => {
      assertRefused(await cron('ai-retry'), 401, /^Scheduler credential missing or invalid$/);
      assertRefused(
        await cron('ai-retry', 'Bearer not-the-cron-secret-000'),
        401,
        'Scheduler credential missing or invalid',
      );
      assertRefused(
        await cron('ai-retry', `Token ${CRON_SECRET}`),
        401,
        'Scheduler credential missing or invalid',
      );
      // The credential is checked first: an unknown job is not revealed to a caller without it.
      assertRefused(await cron('no-such-job'), 401, 'Scheduler credential missing or invalid');
    });

    it("triggers the job's Temporal Schedule now: the schedule takes an action", async () => {
      const { client } = await temporalEnvironment();
      // Paused, as an operator whose scheduler is external would leave it: only the endpoint runs it.
      await ensureAiRetrySchedule(client, TEST_TASK_QUEUE, { paused: true });
      const schedule = client.schedule.getHandle(AI_RETRY_SCHEDULE_ID);
      const before = (await schedule.describe()).info.numActionsTaken;

      const response = await cron('ai-retry', `Bearer ${CRON_SECRET}`);
      assert.equal(response.status, 202, response.text);
      const data = response.body.data as { job: string; scheduleId: string; triggeredAt: string };
      assert.equal(data.job, 'ai-retry');
      assert.equal(data.scheduleId, AI_RETRY_SCHEDULE_ID);

      const deadline = Date.now() + 20_000;
      let taken = before;
      while (taken === before && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        taken = (await schedule.describe()).info.numActionsTaken;
      }
      assert.equal(taken, before + 1, 'the schedule ran its action once');
    });

    it('an unknown job is 404; a job whose schedule the worker has not created yet is 503', async () => {
      assertRefused(await cron('no-such-job', `Bearer ${CRON_SECRET}`), 404, 'Scheduled job not found');
      const { client } = await temporalEnvironment();
      await client.schedule
        .getHandle(AI_RETRY_SCHEDULE_ID)
        .delete()
        .catch(() => undefined);
      assertRefused(
        await cron('ai-retry', `Bearer ${CRON_SECRET}`),
        503,
        `Schedule ${AI_RETRY_SCHEDULE_ID} does not exist yet: the worker creates it when it starts`,
      );
    });

    it('is off (503 naming CRON_SECRET) while CRON_SECRET is unset', async () => {
      assertRefused(
        await cron('ai-retry', `Bearer ${CRON_SECRET}`, unconfigured),
        503,
        'This endpoint is off: CRON_SECRET is not configured',
      );
    });
  });

  describe('GET /api/internal/queues (Authorization: Token <TOKEN>)', () => {
    const queues = (authorization?: string, on = api) =>
      on.request(
        'GET',
        '/api/internal/queues',
        authorization ? { headers: { Authorization: authorization } } : {},
      );

    interface Depths {
      aiWork: { queued: number; processing: number; failed: number };
      notifications: { pending: number; sending: number; failed: number };
      payments: { queued: number; processing: number; failed: number };
      oldestWaiting: { aiWork: string | null; notification: string | null };
    }

    it('answers 401 in the envelope without a token, with an unknown one, or in another scheme', async () => {
      assertRefused(await queues(), 401, 'Service token missing or invalid');
      assertRefused(await queues('Token not-a-configured-token-00'), 401, 'Service token missing or invalid');
      assertRefused(await queues(`Bearer ${SERVICE_TOKENS[0]}`), 401, 'Service token missing or invalid');
    });

    it('reports the depth of each queue, across organizations, to any configured token', async () => {
      const before = (await queues(`Token ${SERVICE_TOKENS[1]}`)).body.data as Depths;
      await asSystem(testDatabase(), async (tx) => {
        await tx
          .insertInto('notification_outbox')
          .values([
            { channel: 'email', recipient: 'a@example.com', kind: 'test', body: 'x', status: 'pending' },
            { channel: 'email', recipient: 'b@example.com', kind: 'test', body: 'x', status: 'failed' },
          ])
          .execute();
        await tx
          .insertInto('queued_ai_work')
          .values({ step: 'agent1', status: 'failed', payload: '{}' })
          .execute();
      });
      const response = await queues(`Token ${SERVICE_TOKENS[0]}`);
      assert.equal(response.status, 200, response.text);
      const after = response.body.data as Depths;
      assert.equal(after.notifications.pending, before.notifications.pending + 1);
      assert.equal(after.notifications.failed, before.notifications.failed + 1);
      assert.equal(after.notifications.sending, before.notifications.sending);
      assert.equal(after.aiWork.failed, before.aiWork.failed + 1);
      assert.equal(typeof after.payments.processing, 'number');
      assert.ok(after.oldestWaiting.notification, 'a pending message has an age');
    });

    it('is off (503 naming SERVICE_TOKENS) while SERVICE_TOKENS is unset', async () => {
      assertRefused(
        await queues(`Token ${SERVICE_TOKENS[0]}`, unconfigured),
        503,
        'This endpoint is off: SERVICE_TOKENS is not configured',
      );
    });
  });

  it('the three credentials are told apart: none opens the other endpoints', async () => {
    const withCron = await api.request('GET', '/api/internal/queues', {
      headers: { Authorization: `Bearer ${CRON_SECRET}` },
    });
    assert.equal(withCron.status, 401);
    const withToken = await api.request('POST', '/api/cron/ai-retry', {
      headers: { Authorization: `Token ${SERVICE_TOKENS[0]}` },
    });
    assert.equal(withToken.status, 401);
    // Neither is a user credential either.
    const me = await api.request('GET', '/api/auth/me', {
      headers: { Authorization: `Bearer ${CRON_SECRET}` },
    });
    assert.equal(me.status, 401);
  });
});
