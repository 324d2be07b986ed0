import assert from 'node:assert/strict';
import { PRODUCTION_WITH_STAND_INS } from '../support/config.ts';
import { startTestApi, type TestApi, type TestResponse } from '../support/api.ts';

// The test configuration's own origin (test/support/config.ts).
const OWN_ORIGIN = 'https://usability.example';

function assertAllowed(response: TestResponse, origin: string): void {
  assert.notEqual(response.status, 403, `${origin}: ${response.text}`);
  assert.equal(response.headers.get('Access-Control-Allow-Origin'), origin);
  assert.equal(response.headers.get('Access-Control-Allow-Credentials'), 'true');
  assert.match(response.headers.get('Vary') ?? '', /Origin/);
}

function assertRefused(response: TestResponse, origin: string): void {
  assert.equal(response.status, 403, `${origin} should be refused`);
  assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
  assert.equal(response.body.success, false);
  assert.equal(response.body.data, null);
  assert.equal(response.body.error, `Origin ${origin} is not allowed`);
}

const fromOrigin = (api: TestApi, origin: string) =>
  api.request('GET', '/api/health', { headers: { Origin: origin } });

const preflight = (api: TestApi, origin: string) =>
  api.request('OPTIONS', '/api/jobs', {
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'authorization, content-type',
    },
  });

describe('CORS: own origin, its sub-domains, localhost only in development', () => {
  describe('in the test environment (BASE_URL https://usability.example)', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi();
    });
    after(() => api.stop());

    it('the own origin is allowed and echoed', async () => {
      const response = await fromOrigin(api, OWN_ORIGIN);
      assert.equal(response.status, 200);
      assertAllowed(response, OWN_ORIGIN);
    });

    it('sub-domains of the own origin are allowed and echoed', async () => {
      for (const origin of ['https://app.usability.example', 'https://eu.app.usability.example']) {
        const response = await fromOrigin(api, origin);
        assert.equal(response.status, 200);
        assertAllowed(response, origin);
      }
    });

    it('look-alike domains are refused with 403', async () => {
      for (const origin of [
        'https://evilusability.example',
        'https://usability.example.evil.com',
        'https://usability.examplex',
      ]) {
        assertRefused(await fromOrigin(api, origin), origin);
      }
    });

    it('the own host over http, or on another port, is another origin and refused', async () => {
      for (const origin of [
        'http://usability.example',
        'http://app.usability.example',
        'https://usability.example:8443',
      ]) {
        assertRefused(await fromOrigin(api, origin), origin);
      }
    });

    it('localhost is refused outside development', async () => {
      for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080']) {
        assertRefused(await fromOrigin(api, origin), origin);
      }
    });

    it('other origins are refused with 403 in the envelope', async () => {
      for (const origin of ['https://example.com', 'null']) {
        assertRefused(await fromOrigin(api, origin), origin);
      }
    });

    it('a request without Origin (server to server) passes without CORS headers', async () => {
      const response = await api.request('GET', '/api/health');
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
    });

    it('preflight OPTIONS from an allowed origin answers 200 with the allow headers, needing no token', async () => {
      const origin = 'https://app.usability.example';
      const response = await preflight(api, origin);
      assert.equal(response.status, 200);
      assertAllowed(response, origin);
      const methods = (response.headers.get('Access-Control-Allow-Methods') ?? '').split(/,\s*/);
      for (const method of ['GET', 'POST', 'PATCH']) assert.ok(methods.includes(method), method);
      const headers = (response.headers.get('Access-Control-Allow-Headers') ?? '')
        .toLowerCase()
        .split(/,\s*/);
      for (const header of ['authorization', 'content-type', 'idempotency-key'])
        assert.ok(headers.includes(header));
      assert.equal(response.body.success, true);
    });

    it('preflight OPTIONS from another origin answers 403', async () => {
      assertRefused(await preflight(api, 'https://evilusability.example'), 'https://evilusability.example');
    });

    it('responses to allowed origins expose Retry-After and X-Request-Id to scripts', async () => {
      const response = await fromOrigin(api, OWN_ORIGIN);
      const exposed = (response.headers.get('Access-Control-Expose-Headers') ?? '').split(/,\s*/);
      assert.ok(exposed.includes('Retry-After') && exposed.includes('X-Request-Id'), exposed.join(', '));
    });
  });

  describe('in development', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi({ env: { NODE_ENV: 'development' } });
    });
    after(() => api.stop());

    it('localhost on any port is allowed', async () => {
      for (const origin of ['http://localhost:5173', 'http://localhost:3000', 'http://127.0.0.1:8080']) {
        const response = await fromOrigin(api, origin);
        assert.equal(response.status, 200);
        assertAllowed(response, origin);
      }
      assert.equal((await preflight(api, 'http://localhost:5173')).status, 200);
    });

    it('a host merely starting with localhost is still refused', async () => {
      assertRefused(await fromOrigin(api, 'http://localhost.evil.com'), 'http://localhost.evil.com');
    });
  });

  describe('in production', () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi({ env: PRODUCTION_WITH_STAND_INS });
    });
    after(() => api.stop());

    it('localhost is refused', async () => {
      assertRefused(await fromOrigin(api, 'http://localhost:5173'), 'http://localhost:5173');
    });

    it('the own origin is still allowed', async () => {
      assertAllowed(await fromOrigin(api, OWN_ORIGIN), OWN_ORIGIN);
    });
  });
});
