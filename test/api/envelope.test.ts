import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApi } from '../../api/app.ts';
import { signSessionJwt } from '../../api/auth/session-jwt.ts';
import { connectDatabase } from '../../db/connection.ts';
import { startTestApi, type TestApi, type TestResponse } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { testDatabaseUrl } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The spec's error envelope: success false, data null, a message, metadata null, and nothing else. */
function assertError(response: TestResponse, status: number, message: RegExp | string): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(Object.keys(response.body).sort(), ['data', 'error', 'metadata', 'success']);
  assert.equal(response.body.success, false);
  assert.equal(response.body.data, null);
  assert.equal(response.body.metadata, null);
  assert.equal(typeof response.body.error, 'string');
  if (typeof message === 'string') assert.equal(response.body.error, message);
  else assert.match(response.body.error!, message);
}

describe('the response envelope and error statuses', () => {
  let api: TestApi;
  let business: BusinessFixture;
  let token: string;
  before(async () => {
    api = await startTestApi();
    business = await createBusiness('free');
    token = await sessionToken(business.claims);
  });
  after(() => api.stop());

  it('a success answers {success: true, data, error: null, metadata: null}', async () => {
    const response = await api.request('GET', '/api/health');
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['data', 'error', 'metadata', 'success']);
    assert.equal(response.body.success, true);
    assert.equal(response.body.error, null);
    assert.equal(response.body.metadata, null);
    assert.notEqual(response.body.data, null);
  });

  it('an unknown route answers 404 in the envelope', async () => {
    assertError(await api.request('GET', '/api/no-such-thing'), 404, /GET \/api\/no-such-thing/);
    assertError(await api.request('POST', '/elsewhere', { body: {} }), 404, /\/elsewhere/);
  });

  it('a known path with another method answers 405 in the envelope with an Allow header', async () => {
    const response = await api.request('DELETE', '/api/jobs', { token });
    assertError(response, 405, 'Method not allowed');
    const allowed = (response.headers.get('Allow') ?? '').split(/,\s*/);
    assert.ok(allowed.includes('GET') && allowed.includes('POST'), `Allow: ${allowed.join(', ')}`);
    assert.ok(!allowed.includes('DELETE'));
  });

  it('OPTIONS and Allow leave out a method whose route cannot take this path (GET /api/audits/:id on /api/audits/full)', async () => {
    const full = await api.request('OPTIONS', '/api/audits/full', { token });
    assert.equal(full.status, 200, full.text);
    assert.equal(full.headers.get('Allow'), 'POST');
    const audit = await api.request('OPTIONS', '/api/audits/7d3c2f0e-8a40-4a61-9a7e-0a4c1b2d3e4f', { token });
    assert.match(audit.headers.get('Allow') ?? '', /GET/);
    // Nothing takes a study id that is no UUID: the path is unknown, whatever the method.
    const notAnId = await api.request('DELETE', '/api/jobs/not-an-id', { token });
    assertError(notAnId, 404, /No route/);
    assert.equal(notAnId.headers.get('Allow'), null);
  });

  it('a method the router has never heard of answers 405 on a known path and 404 elsewhere', async () => {
    const known = await api.request('PROPFIND', '/api/jobs', { token });
    assertError(known, 405, 'Method not allowed');
    assert.match(known.headers.get('Allow') ?? '', /GET/);
    assertError(await api.request('PROPFIND', '/api/nowhere', { token }), 404, /No route/);
  });

  it('a plain OPTIONS (no CORS preflight) answers 200 in the envelope with an Allow header', async () => {
    for (const headers of [{}, { Origin: 'https://usability.example' }] as Record<string, string>[]) {
      const response = await api.request('OPTIONS', '/api/jobs', { headers });
      assert.equal(response.status, 200, response.text);
      assert.match(response.headers.get('Content-Type') ?? '', /application\/json/);
      assert.deepEqual(response.body, { success: true, data: null, error: null, metadata: null });
      const allowed = (response.headers.get('Allow') ?? '').split(/,\s*/);
      assert.ok(allowed.includes('GET') && allowed.includes('POST'), `Allow: ${allowed.join(', ')}`);
    }
  });

  it('OPTIONS on an unknown path answers 404 in the envelope', async () => {
    assertError(await api.request('OPTIONS', '/api/nowhere'), 404, /No route for OPTIONS/);
  });

  it('a malformed JSON body answers 400', async () => {
    const response = await api.request('POST', '/api/jobs', { token, rawBody: '{"title": "unterminated' });
    assertError(response, 400, /Malformed request body/);
  });

  it('valid JSON with a __proto__ key is never called malformed: 422 naming the key, at any depth', async () => {
    for (const rawBody of [
      '{"__proto__": {"admin": true}}',
      '{"title": "x", "tasks": [{"__proto__": null}]}',
    ]) {
      const response = await api.request('POST', '/api/jobs', { token, rawBody });
      assertError(response, 422, 'body: must not contain the key __proto__');
    }
  });

  it('a malformed query parameter answers 400 naming it (GET /api/jobs?page=abc)', async () => {
    const response = await api.request('GET', '/api/jobs?page=abc', { token });
    assertError(response, 400, /^Malformed query parameter page: /);
  });

  it('integers in the query are plain decimal digits: page=1e2, limit=0x10, limit=1.5 and page= answer 400', async () => {
    for (const [query, name] of [
      ['page=1e2', 'page'],
      ['limit=0x10', 'limit'],
      ['limit=1.5', 'limit'],
      ['page=', 'page'],
      ['page=1&page=2', 'page'],
    ] as const) {
      const response = await api.request('GET', `/api/jobs?${query}`, { token });
      assertError(response, 400, new RegExp(`^Malformed query parameter ${name}: `));
    }
    const plain = await api.request('GET', '/api/jobs?page=2&limit=10', { token });
    assert.equal(plain.status, 200, plain.text);
    assert.deepEqual([plain.body.metadata?.page, plain.body.metadata?.limit], [2, 10]);
  });

  it('a body that is not JSON answers 400 (form and text content types)', async () => {
    const form = await api.request('POST', '/api/jobs', {
      token,
      rawBody: 'title=Checkout',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assertError(form, 400, /must be JSON/);
    const text = await api.request('POST', '/api/jobs', {
      token,
      rawBody: JSON.stringify(validStudyBody()),
      headers: { 'Content-Type': 'text/plain' },
    });
    assertError(text, 400, /must be JSON/);
  });

  it('a body sent without a Content-Type answers 400 rather than being read as {}', async () => {
    const response = await fetch(`${api.url}/api/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: new Blob([JSON.stringify(validStudyBody())]),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      success: false,
      data: null,
      error: 'Request body must be JSON (Content-Type: application/json)',
      metadata: null,
    });
  });

  it('a URL or headers over 16 KB answer 431 in the envelope, not a bare status line', async () => {
    for (const init of [
      { path: `/api/jobs?filter=${'a'.repeat(17_000)}`, headers: {} as Record<string, string> },
      { path: '/api/jobs', headers: { 'X-Padding': 'b'.repeat(17_000) } },
    ]) {
      const response = await fetch(`${api.url}${init.path}`, { headers: init.headers });
      assert.equal(response.status, 431);
      assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(await response.json(), {
        success: false,
        data: null,
        error: 'Request line and headers too large (at most 16 KB together)',
        metadata: null,
      });
    }
  });

  it('a missing Authorization header answers 401', async () => {
    assertError(await api.request('GET', '/api/jobs'), 401, 'Authentication required');
    assertError(
      await api.request('POST', '/api/jobs', { body: validStudyBody() }),
      401,
      'Authentication required',
    );
  });

  it('an Authorization header that is not a bearer token answers 401', async () => {
    const response = await api.request('GET', '/api/jobs', {
      headers: { Authorization: 'Basic dXNlcjpwdw==' },
    });
    assertError(response, 401, /Unsupported Authorization header/);
  });

  it('a JWT signed with another secret answers 401', async () => {
    const forged = await signSessionJwt(business.claims, 'another-secret-another-secret-another-0123');
    assertError(await api.request('GET', '/api/jobs', { token: forged }), 401, 'Invalid session token');
  });

  it('an expired JWT answers 401', async () => {
    const expired = await sessionToken(business.claims, new Date(Date.now() - 2 * DAY_MS));
    assertError(await api.request('GET', '/api/jobs', { token: expired }), 401, 'Session token expired');
  });

  it('a tester creating a study answers 403', async () => {
    const tester = await sessionToken(await createTester());
    const response = await api.request('POST', '/api/jobs', { token: tester, body: validStudyBody() });
    assertError(response, 403, /requires the role business/);
  });

  it('an unknown job id answers 404, and so does an id that cannot be one', async () => {
    assertError(await api.request('GET', `/api/jobs/${randomUUID()}`, { token }), 404, 'Study not found');
    assertError(await api.request('GET', '/api/jobs/not-an-id', { token }), 404, 'Study not found');
  });

  it('a JSON body over 1 MB answers 413', async () => {
    const body = { ...validStudyBody(), description: 'x'.repeat(1024 * 1024) };
    assertError(await api.request('POST', '/api/jobs', { token, body }), 413, 'Request body too large');
  });

  it('a validation failure answers 422 naming the first violation by path (tasks[0].title: Required)', async () => {
    const body = validStudyBody() as { tasks: Record<string, unknown>[] };
    delete body.tasks[0]!.title;
    delete body.tasks[1]!.description;
    assertError(await api.request('POST', '/api/jobs', { token, body }), 422, 'tasks[0].title: Required');
  });

  describe('X-Request-Id', () => {
    it('every response carries one, success or error', async () => {
      const responses = await Promise.all([
        api.request('GET', '/api/health'),
        api.request('GET', '/api/nowhere'),
        api.request('DELETE', '/api/jobs', { token }),
        api.request('GET', '/api/jobs'),
        api.request('GET', '/api/jobs?page=abc', { token }),
      ]);
      assert.deepEqual(
        responses.map((response) => response.status),
        [200, 404, 405, 401, 400],
      );
      for (const response of responses) assert.match(response.headers.get('X-Request-Id') ?? '', UUID);
      const ids = new Set(responses.map((response) => response.headers.get('X-Request-Id')));
      assert.equal(ids.size, responses.length, 'each request gets its own id');
    });

    it('a well-formed incoming id is echoed', async () => {
      const id = `trace-${randomUUID()}`;
      const response = await api.request('GET', '/api/health', { headers: { 'X-Request-Id': id } });
      assert.equal(response.headers.get('X-Request-Id'), id);
    });

    it('a malformed incoming id is replaced', async () => {
      for (const bad of ['short', 'has spaces in it', 'x'.repeat(129), 'semi;colon;value']) {
        const response = await api.request('GET', '/api/health', { headers: { 'X-Request-Id': bad } });
        assert.match(response.headers.get('X-Request-Id') ?? '', UUID, `for ${JSON.stringify(bad)}`);
      }
    });
  });
});

describe('an unexpected error', () => {
  it('answers 500 without internals, and is logged with the request id', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    // A database without the service's tables: the first query throws a driver error full of internals.
    const tableless = connectDatabase(
      Object.assign(new URL(testDatabaseUrl()), { pathname: '/postgres' }).toString(),
      {
        poolSize: 1,
      },
    );
    const api = createApi({
      config: testConfig(),
      db: tableless.db,
      temporal: (await temporalEnvironment()).client,
      logger: pino({ level: 'info' }, sink),
    });
    const url = await api.listen(0, '127.0.0.1');
    try {
      const business = await createBusiness('free');
      const requestId = `trace-${randomUUID()}`;
      const response = await fetch(`${url}/api/jobs`, {
        headers: {
          Authorization: `Bearer ${await sessionToken(business.claims)}`,
          'X-Request-Id': requestId,
        },
      });
      const text = await response.text();
      assert.equal(response.status, 500);
      assert.deepEqual(JSON.parse(text), {
        success: false,
        data: null,
        error: 'Internal server error',
        metadata: null,
      });
      assert.doesNotMatch(text, /relation|does not exist|42P01|\bat\s/);
      const logged = lines.find((line) => line.level === 50);
      assert.ok(logged, 'the error is logged');
      assert.equal(logged.requestId, requestId);
      assert.match(JSON.stringify(logged.err), /"code":"42/);
    } finally {
      await api.stop();
      await tableless.close();
    }
  });
});
