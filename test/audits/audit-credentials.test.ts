import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { fullAuditWorkflowId } from '../../workflows/messages/audit.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment } from '../support/temporal.ts';
import { MEMBER_CREDENTIALS, type SeenRequest } from './fixture-server.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { instantClient, type InstantClient } from './instant-client.ts';
import { eventually } from './polling.ts';

const [HEADER, KEY] = MEMBER_CREDENTIALS.header;
const [COOKIE, VALUE] = MEMBER_CREDENTIALS.cookie;
/** The request's credentials: what lets the audit into the members' page. */
const credentials = { headers: { [HEADER]: KEY }, cookies: [{ name: COOKIE, value: VALUE }] };

/** Whether a request the fixture server had carries either secret, anywhere in its headers. */
const carriesSecret = (request: SeenRequest) =>
  JSON.stringify(request.headers).includes(KEY) || JSON.stringify(request.headers).includes(VALUE);

describe('audits behind a login: headers and cookies for the audited origin only, never stored', function () {
  this.timeout(120_000);
  let harness: AuditHarness;
  let client: InstantClient;
  /** The fixture server's requests since `mark()`. */
  let from = 0;
  const mark = () => (from = harness.fixtures.requests().length);
  const since = () => harness.fixtures.requests().slice(from);
  const crossOrigin = () => `http://${harness.fixtures.crossOriginHostPort}`;

  before(async () => {
    harness = await acquireAuditHarness();
    client = await instantClient(harness);
  });
  after(() => releaseAuditHarness());

  it('an instant audit sends them with every request to the origin, and to no other', async () => {
    const url = `${harness.fixtures.url}/members.html`;
    mark();
    const without = await client.audit('members.html');
    assert.ok(!without.issues.some((issue) => issue.wcagCriteria.includes('1.1.1')), 'the sign-in page only');
    assert.ok(!since().some(carriesSecret));

    mark();
    const behind = await client.audit('members.html', credentials);
    assert.equal(behind.url, url);
    assert.ok(
      behind.issues.some((issue) => issue.wcagCriteria.includes('1.1.1') && issue.element.includes('img')),
      `the members' page itself was audited: ${JSON.stringify(behind.issues)}`,
    );
    const requests = since();
    const own = requests.filter((r) => r.host === harness.fixtures.hostPort);
    const other = requests.filter((r) => r.host === harness.fixtures.crossOriginHostPort);
    assert.ok(
      own.some((r) => r.path === '/members.html') && own.some((r) => r.path === '/pixel.gif?same-origin'),
    );
    for (const request of own.filter((r) => r.path !== '/pixel.gif?from-another-origin')) {
      assert.equal(request.headers[HEADER.toLowerCase()], KEY, request.path);
      assert.match(String(request.headers.cookie), new RegExp(`(^|; )${COOKIE}=${VALUE}($|;)`), request.path);
    }
    assert.ok(
      other.some((r) => r.path === '/pixel.gif?cross-origin'),
      'the other origin was asked for its image',
    );
    assert.deepEqual(other.filter(carriesSecret), [], 'nothing of them went to the other origin');
    // The other origin's frame asked the audited origin for an image: not with them either.
    const askedBack = own.filter((r) => r.path === '/pixel.gif?from-another-origin');
    assert.equal(askedBack.length, 1);
    assert.ok(!carriesSecret(askedBack[0]!), "a request another origin's frame made carries none");
  });

  it('a redirect to another origin reaches it without them, and the page it lands on is audited', async () => {
    mark();
    const landed = await client.audit(
      `redirect?to=${encodeURIComponent(`${crossOrigin()}/clean.html`)}`,
      credentials,
    );
    // The API answers the URL asked for; the page audited is stored as finalUrl.
    const finalUrl = await asSystem(testDatabase(), async (tx) => {
      const row = await tx
        .selectFrom('audits')
        .select('result')
        .where('id', '=', landed.auditId)
        .executeTakeFirstOrThrow();
      return (row.result as { finalUrl: string }).finalUrl;
    });
    assert.equal(finalUrl, `${crossOrigin()}/clean.html`);
    const requests = since();
    const hop = requests.find((r) => r.path.startsWith('/redirect') && r.host === harness.fixtures.hostPort);
    assert.ok(hop && carriesSecret(hop), 'the audited origin had them');
    const after = requests.filter((r) => r.host === harness.fixtures.crossOriginHostPort);
    assert.ok(after.some((r) => r.path === '/clean.html') && after.some((r) => r.path === '/team.png'));
    assert.deepEqual(after.filter(carriesSecret), [], 'the redirect did not carry them');
  });

  it('a redirect within the origin is refused with 422: the browser would follow it without them', async () => {
    const answer = await client.request({
      url: `${harness.fixtures.url}/redirect?to=${encodeURIComponent('/members.html')}`,
      ...credentials,
    });
    assert.equal(answer.status, 422, answer.text);
    assert.match(
      answer.body.error ?? '',
      /^url: Redirects within its origin \(to http:\/\/127\.0\.0\.1:\d+\/members\.html\); with headers or cookies, give the address it redirects to$/,
    );
  });

  it('a full audit crawls the origin with them; neither the database nor the workflow history holds them', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token: client.token,
      body: { url: `${harness.fixtures.url}/members.html`, crawl: true, maxPages: 2, ...credentials },
    });
    assert.equal(response.status, 202, response.text);
    const { auditJobId } = response.body.data as { auditJobId: string };
    let job:
      | { status: string; result: { issues: { pageUrl: string; wcagCriteria: string[] }[] } | null }
      | undefined;
    assert.ok(
      await eventually(async () => {
        const read = await harness.api.request('GET', `/api/audits/${auditJobId}`, { token: client.token });
        job = read.body.data as typeof job;
        return job?.status === 'complete' || job?.status === 'failed';
      }, 100_000),
    );
    assert.equal(job!.status, 'complete', JSON.stringify(job));
    assert.ok(
      job!.result!.issues.some(
        (i) => i.pageUrl.endsWith('/members.html') && i.wcagCriteria.includes('1.1.1'),
      ),
      'the members page was audited behind the login',
    );
    const stored = await asSystem(testDatabase(), async (tx) => {
      const rows = await sql<{ row: string }>`
        select row_to_json(j)::text as row from audit_jobs j where j.id = ${auditJobId}
        union all select row_to_json(p)::text from audit_pages p where p.audit_job_id = ${auditJobId}`.execute(
        tx,
      );
      return rows.rows.map((r) => r.row).join('\n');
    });
    assert.ok(stored.includes('members.html'));
    assert.ok(!stored.includes(KEY) && !stored.includes(VALUE), 'nothing of them stored');
    const { client: temporal } = await temporalEnvironment();
    // Every byte string of the history (payloads, failures, markers) as text.
    const texts: string[] = [];
    const collect = (value: unknown): void => {
      if (value instanceof Uint8Array) texts.push(Buffer.from(value).toString('utf8'));
      else if (value && typeof value === 'object') for (const item of Object.values(value)) collect(item);
    };
    collect(await temporal.workflow.getHandle(fullAuditWorkflowId(auditJobId)).fetchHistory());
    const history = texts.join('\n');
    assert.match(history, /"sealedCredentials":"v1\./, 'the history carries them sealed');
    assert.ok(!history.includes(KEY), 'the header value is nowhere in the history');
    assert.ok(!history.includes(VALUE), 'nor the cookie value');
  });

  it('refuses headers the browser owns, line breaks, bad cookies and too many, naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ headers: { Host: 'evil.example' } }, /^headers\.Host: This header is set by the browser/],
      [
        { headers: { Cookie: 'a=b' } },
        /^headers\.Cookie: This header is set by the browser \(cookies go in cookies\)$/,
      ],
      [
        { headers: { 'Proxy-Authorization': 'x' } },
        /^headers\.Proxy-Authorization: This header is set by the browser/,
      ],
      [
        { headers: { 'X-Key': 'a\r\nInjected: yes' } },
        /^headers\.X-Key: A header value must not contain line breaks/,
      ],
      [{ headers: { 'Bad Name': 'x' } }, /^headers\.Bad Name: A header name must be an HTTP token/],
      [
        { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) },
        /^headers: At most 20 headers$/,
      ],
      [{ cookies: [{ name: 'a', value: 'b; c=d' }] }, /^cookies\[0\]\.value: Must be a cookie value/],
      [{ cookies: [{ name: '', value: 'b' }] }, /^cookies\[0\]\.name: Must not be empty$/],
      [
        { cookies: Array.from({ length: 51 }, (_, i) => ({ name: `c${i}`, value: 'v' })) },
        /^cookies: At most 50 cookies$/,
      ],
    ];
    for (const [extra, message] of cases) {
      const answer = await client.request({ url: `${harness.fixtures.url}/clean.html`, ...extra });
      assert.equal(answer.status, 422, `${JSON.stringify(extra).slice(0, 80)}: ${answer.text}`);
      assert.match(answer.body.error ?? '', message);
    }
  });
});
