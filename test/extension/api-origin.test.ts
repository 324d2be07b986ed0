import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi } from '../support/api.ts';

// The extension's service worker sends `Origin: chrome-extension://<id>` (Chromium exempts it from
// CORS for its host permissions but still names its origin). The API takes such requests when they
// carry the test token, the extension's only credential (api/http/cors.ts).
const EXTENSION_ORIGIN = `chrome-extension://${'abcdefghijklmnop'.repeat(2)}`;
const FIREFOX_ORIGIN = 'moz-extension://0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const SOME_TOKEN = 'ab'.repeat(24);

describe('CORS: requests from the browser extension', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi();
  });
  after(() => api.stop());

  const postEvents = (headers: Record<string, string>) =>
    api.request('POST', `/api/sessions/${randomUUID()}/events`, { body: { batch: [] }, headers });

  it('an extension origin with X-Test-Token reaches authentication, without CORS headers', async () => {
    for (const origin of [EXTENSION_ORIGIN, FIREFOX_ORIGIN]) {
      const response = await postEvents({ Origin: origin, 'X-Test-Token': SOME_TOKEN });
      assert.equal(response.status, 401, `${origin}: ${response.text}`);
      assert.equal(response.body.error, 'Invalid or expired test token');
      assert.equal(response.headers.get('Access-Control-Allow-Origin'), null);
    }
  });

  it('an extension origin without the test token is refused like any other origin', async () => {
    const response = await postEvents({ Origin: EXTENSION_ORIGIN });
    assert.equal(response.status, 403);
    assert.equal(response.body.error, `Origin ${EXTENSION_ORIGIN} is not allowed`);
  });

  it('an origin that only looks like an extension is refused, token or not', async () => {
    for (const origin of [
      'chrome-extension://short',
      'chrome-extension://ABCDEFGHIJKLMNOPABCDEFGHIJKLMNOP',
      'https://chrome-extension.example',
    ]) {
      const response = await postEvents({ Origin: origin, 'X-Test-Token': SOME_TOKEN });
      assert.equal(response.status, 403, origin);
      assert.equal(response.body.error, `Origin ${origin} is not allowed`);
    }
  });
});
