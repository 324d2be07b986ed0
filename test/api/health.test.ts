import assert from 'node:assert/strict';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { createApi } from '../../api/app.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase } from '../support/database.ts';

describe('GET /api/health', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  it('answers 200 in the envelope when the database and Temporal are reachable', async () => {
    const response = await api.request('GET', '/api/health');
    assert.equal(response.status, 200);
    assert.equal(response.body.success, true);
    assert.equal(response.body.error, null);
    assert.equal(response.body.metadata, null);
    const data = response.body.data as {
      status: string;
      database: { reachable: boolean };
      temporal: { reachable: boolean };
    };
    assert.equal(data.status, 'ok');
    assert.equal(data.database.reachable, true);
    assert.equal(data.temporal.reachable, true);
  });

  it('lists each provider as real or as its local stand-in', async () => {
    const local = await api.request('GET', '/api/health');
    assert.deepEqual((local.body.data as { providers: unknown }).providers, {
      email: 'local',
      messaging: 'local',
      ai: 'local',
      payments: 'local',
      facialEngine: 'off',
    });
    const configured = await startTestApi({
      worker: false,
      env: {
        SMTP_URL: 'smtp://127.0.0.1:2525',
        MESSAGING_BOT_TOKEN: '123:abc',
        GOOGLE_AI_API_KEY: 'key',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        FACIAL_ENGINE_URL: 'http://127.0.0.1:3100',
      },
    });
    try {
      const real = await configured.request('GET', '/api/health');
      assert.deepEqual((real.body.data as { providers: unknown }).providers, {
        email: 'real',
        messaging: 'real',
        ai: 'real',
        payments: 'real',
        facialEngine: 'real',
      });
    } finally {
      await configured.stop();
    }
  });

  it('answers 503 naming Temporal when the Temporal server does not answer', async () => {
    // A lazy connection to a closed port, without client retries so nothing is left pending at close.
    const connection = Connection.lazy({ address: '127.0.0.1:1', connectTimeout: 500, interceptors: [] });
    const down = createApi({
      config: testConfig(),
      db: serviceDatabase(),
      temporal: new Client({ connection }),
      logger: pino({ level: 'silent' }),
    });
    const url = await down.listen(0, '127.0.0.1');
    try {
      const response = await fetch(`${url}/api/health`);
      const body = (await response.json()) as { success: boolean; error: string; data: unknown };
      assert.equal(response.status, 503);
      assert.equal(body.success, false);
      assert.equal(body.data, null);
      assert.match(body.error, /temporal unreachable/);
      assert.doesNotMatch(body.error, /database/);
      // Liveness is the process, not its dependencies: a restart would not bring Temporal back.
      const live = await fetch(`${url}/api/health/live`);
      assert.equal(live.status, 200);
    } finally {
      await down.stop();
      await connection.close();
    }
  });
});
