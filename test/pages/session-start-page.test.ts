import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asSystem } from '../../db/doors.ts';
import {
  RECORDER_DOWNLOAD_PATH,
  RECORDER_PACKAGE_FILE,
  recorderFactsFileOf,
  type RecorderPackageFacts,
} from '../../lib/recorder-package.ts';
import { sha256Hex } from '../../lib/secrets.ts';
import { businessWithStudy, startSession } from '../sessions/fixtures.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, PageClient } from './page-client.ts';

const storedTokenHash = (sessionId: string) =>
  asSystem(
    testDatabase(),
    async (tx) =>
      (
        await tx
          .selectFrom('sessions')
          .select('test_token_hash')
          .where('id', '=', sessionId)
          .executeTakeFirstOrThrow()
      ).test_token_hash,
  );

const handoffOf = (html: string) => {
  const element =
    /<div id="recorder-handoff" hidden(?:="")? data-session-id="([^"]+)" data-test-token="([0-9a-f]{48})"/.exec(
      html,
    );
  return element ? { sessionId: element[1]!, testToken: element[2]! } : undefined;
};

// The session start page (issue 32, point 4): where accepting an offer leads; its button takes a
// fresh test token and answers a page that hands it to the extension (test/extension/handoff.test.ts
// drives the extension on it).
describe('the session start page (/sessions/:id/start)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    ({ business, jobId } = await businessWithStudy(api));
  });
  after(() => api.stop());

  const signedIn = (jwt: string) => {
    const client = new PageClient(api.url);
    client.useSession(jwt);
    return client;
  };

  it("shows the tester's session, its prototype and how to install the recorder, with one button", async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const page = await signedIn(testerToken).get(`/sessions/${sessionId}/start`);
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    assert.match(page.html, /Start your session: /);
    assert.match(page.html, /href="https:\/\/shop\.example\/checkout"/, 'the prototype');
    assert.match(page.html, /Install the session recorder first/);
    assert.ok(page.html.includes(`action="/sessions/${sessionId}/start"`));
    assert.equal(handoffOf(page.html), undefined, 'no token before the button');
    assert.ok(
      !page.html.includes('data-autostart'),
      'only after accepting an offer does the recorder press it',
    );
    assert.equal(page.headers.get('cache-control'), 'no-store');
  });

  it('the button answers a fresh test token for the extension, once: the previous one stops working', async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const before = await storedTokenHash(sessionId);
    const tester = signedIn(testerToken);
    await tester.get(`/sessions/${sessionId}/start`);
    const started = await tester.post(`/sessions/${sessionId}/start`, {});
    assert.equal(started.status, 200, started.html);
    assert.equal(started.headers.get('cache-control'), 'no-store', 'the answer carries a credential');
    const handoff = handoffOf(started.html);
    assert.ok(handoff, 'the page carries the session for the recorder');
    assert.equal(handoff.sessionId, sessionId);
    assert.equal(await storedTokenHash(sessionId), sha256Hex(handoff.testToken), 'it is the current token');
    assert.notEqual(before, sha256Hex(handoff.testToken));
    assert.match(started.html, /role="status"/);
    assert.ok(started.html.includes(`<code>${handoff.testToken}</code>`), 'the values to paste by hand');
    const patched = await api.request('PATCH', `/api/sessions/${sessionId}`, {
      headers: { 'X-Test-Token': handoff.testToken },
      body: { status: 'paused' },
    });
    assert.equal(patched.status, 200, patched.text);
    const again = handoffOf((await tester.post(`/sessions/${sessionId}/start`, {})).html);
    assert.ok(again && again.testToken !== handoff.testToken, 'each press takes a new token');
    const old = await api.request('PATCH', `/api/sessions/${sessionId}`, {
      headers: { 'X-Test-Token': handoff.testToken },
      body: { status: 'active' },
    });
    assert.equal(old.status, 401, 'the replaced token stops working');
  });

  it("is the 404 page for anyone but the session's tester, and takes nothing from them", async () => {
    const { sessionId } = await startSession(api, business, jobId);
    const before = await storedTokenHash(sessionId);
    for (const jwt of [await sessionToken(await createTester()), business]) {
      const other = signedIn(jwt);
      assert.equal((await other.get(`/sessions/${sessionId}/start`)).status, 404);
      await other.get('/dashboard');
      assert.equal((await other.post(`/sessions/${sessionId}/start`, {})).status, 404);
    }
    assert.equal(await storedTokenHash(sessionId), before, 'no token was taken');
    const visitor = new PageClient(api.url);
    const anonymous = await visitor.get(`/sessions/${sessionId}/start`);
    assert.equal(anonymous.status, 303);
    assert.match(anonymous.location ?? '', /^\/login\?next=/, 'a visitor signs in first');
    // The test token reaches its four session endpoints only: it cannot take another token here.
    const issued = await api.request('POST', `/api/sessions/${sessionId}/test-token`, { token: business });
    const testToken = (issued.body.data as { testToken: string }).testToken;
    const withToken = await visitor.get(`/sessions/${sessionId}/start`, { 'X-Test-Token': testToken });
    assert.notEqual(withToken.status, 200);
    assert.ok(!withToken.html.includes('action="/sessions/'), 'no start form for a test token');
    assert.equal(await storedTokenHash(sessionId), sha256Hex(testToken), 'and no token was taken');
  });

  it('a session that can no longer record has nothing to start: no button, and a post is refused (409)', async () => {
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const done = await api.request('POST', `/api/sessions/${sessionId}/complete`, {
      body: {},
      token: business,
    });
    assert.equal(done.status, 200, done.text);
    const tester = signedIn(testerToken);
    const page = await tester.get(`/sessions/${sessionId}/start`);
    assert.match(page.html, /there is nothing left to start/);
    assert.ok(!page.html.includes(`action="/sessions/${sessionId}/start"`));
    const refused = await tester.post(`/sessions/${sessionId}/start`, {});
    assert.equal(refused.status, 409);
    assert.match(refused.html, /Session must be active or paused to start it/);
    assert.equal(handoffOf(refused.html), undefined);
  });
});

// The recorder's package (`npm start` and the image build it for BASE_URL): the start page links it
// only when it was built for this service, since the extension inside trusts one service origin.
describe('the recorder download (/downloads/usability-session-recorder.zip)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let folder: string;
  const zip = Buffer.from('PK\u0003\u0004 a stand-in for the built package');
  const digestOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  const writePackage = async (facts: Partial<RecorderPackageFacts>) => {
    await writeFile(join(folder, RECORDER_PACKAGE_FILE), zip);
    const written: RecorderPackageFacts = {
      serviceOrigin: new URL(api.config.http.baseUrl).origin,
      version: '9.8.7',
      bytes: zip.length,
      sha256: digestOf(zip),
      ...facts,
    };
    await writeFile(recorderFactsFileOf(join(folder, RECORDER_PACKAGE_FILE)), JSON.stringify(written));
  };
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'recorder-package-'));
    api = await startTestApi({ env: { RECORDER_PACKAGE_DIR: folder } });
  });
  after(async () => {
    await api.stop();
    await rm(folder, { recursive: true, force: true });
  });

  const startPageOf = async () => {
    const { business, jobId } = await businessWithStudy(api);
    const { sessionId, testerToken } = await startSession(api, business, jobId);
    const client = new PageClient(api.url);
    client.useSession(testerToken);
    return (await client.get(`/sessions/${sessionId}/start`)).html;
  };

  it('is linked from the start page and served as a download, revalidated by its digest', async () => {
    await writePackage({});
    const html = await startPageOf();
    assert.match(
      html,
      /<a href="\/downloads\/usability-session-recorder\.zip" download(?:="")?>Download the session recorder<\/a>/,
    );
    assert.match(html, /version 9\.8\.7, a zip of 1 kB/);
    const answer = await fetch(`${api.url}${RECORDER_DOWNLOAD_PATH}`);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/zip');
    assert.match(
      answer.headers.get('content-disposition') ?? '',
      /^attachment; filename="usability-session-recorder\.zip"$/,
    );
    assert.deepEqual(Buffer.from(await answer.arrayBuffer()), zip);
    const etag = answer.headers.get('etag');
    assert.equal(etag, `"${digestOf(zip)}"`);
    // fetch would add `Cache-Control: no-cache` to a conditional request, which asks for the body again.
    const again = await fetch(`${api.url}${RECORDER_DOWNLOAD_PATH}`, {
      headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' },
    });
    assert.equal(again.status, 304);
  });

  it('is not offered when it was built for another service, or is not the package its facts describe', async () => {
    for (const facts of [{ serviceOrigin: 'http://localhost:3000' }, { bytes: zip.length + 1 }]) {
      await writePackage(facts);
      const html = await startPageOf();
      assert.ok(!html.includes(RECORDER_DOWNLOAD_PATH), JSON.stringify(facts));
      assert.match(html, /which the study's team sent you/, 'the page says how else to get it');
      const answer = await fetch(`${api.url}${RECORDER_DOWNLOAD_PATH}`, { headers: { Accept: 'text/html' } });
      assert.equal(answer.status, 404);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/, 'the 404 page');
    }
  });
});
