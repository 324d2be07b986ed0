import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SESSION_COOKIE } from '../../api/auth/cookies.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { businessWithStudy } from '../sessions/fixtures.ts';
import { recordableSession } from './support/session.ts';

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

  // What makes the pass safe (docs/decisions/extension.md, "The extension's requests and CORS"): any installed
  // extension may send the tester's cookies from its origin, and they must open nothing there.
  it("the test token alone decides: it reaches its session's endpoints, and the cookie sent beside it opens nothing", async function () {
    this.timeout(30_000);
    const study = await businessWithStudy(api);
    const { sessionId, testToken } = await recordableSession(api, study.business, study.jobId);
    const cookie = `${SESSION_COOKIE}=${study.business}`;
    const jobs = (headers: Record<string, string>) => api.request('GET', '/api/jobs', { headers });
    assert.equal((await jobs({ Cookie: cookie })).status, 200, 'the cookie is a valid credential');

    const own = await api.request('POST', `/api/sessions/${sessionId}/events`, {
      body: { batch: [] },
      headers: { Origin: EXTENSION_ORIGIN, 'X-Test-Token': testToken },
    });
    assert.equal(own.status, 200, own.text);

    const beside = await jobs({ Origin: EXTENSION_ORIGIN, 'X-Test-Token': testToken, Cookie: cookie });
    assert.equal(beside.status, 403, beside.text);
    assert.equal(beside.body.error, 'A test token grants only the session recording endpoints');
    const unknownToken = await jobs({ Origin: EXTENSION_ORIGIN, 'X-Test-Token': SOME_TOKEN, Cookie: cookie });
    assert.equal(unknownToken.status, 401, unknownToken.text);
    const cookieAlone = await jobs({ Origin: EXTENSION_ORIGIN, Cookie: cookie });
    assert.equal(cookieAlone.status, 403, cookieAlone.text);
    assert.equal(cookieAlone.body.error, `Origin ${EXTENSION_ORIGIN} is not allowed`);
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
