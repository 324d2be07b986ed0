import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { MEMBER_CREDENTIALS } from './fixture-server.ts';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

describe('npm run audit: audits through the API for a pipeline, failing it on serious issues', function () {
  this.timeout(120_000);
  let harness: AuditHarness;
  let dir: string;
  const tokens: Record<'read' | 'read_write', string> = { read: '', read_write: '' };
  const page = (name: string) => `${harness.fixtures.url}/${name}`;

  /** scripts/audit.ts as `npm run audit` starts it, against the harness's API. */
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<Run>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/audit.ts', ...args], {
        env: { ...process.env, AUDIT_API_URL: harness.api.url, AUDIT_API_TOKEN: tokens.read_write, ...env },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (status) => resolve({ status, stdout, stderr }));
    });

  before(async () => {
    harness = await acquireAuditHarness();
    dir = await mkdtemp(join(tmpdir(), 'audit-cli-'));
    const owner = await sessionToken((await createBusiness('pro')).claims);
    for (const scope of ['read', 'read_write'] as const) {
      const issued = await harness.api.request('POST', '/api/auth/tokens', {
        token: owner,
        body: { name: `pipeline ${scope}`, scope },
      });
      assert.equal(issued.status, 201, issued.text);
      tokens[scope] = (issued.body.data as { token: string }).token;
    }
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await releaseAuditHarness();
  });

  it('passes on a clean page and fails on one with a serious issue, with one SARIF log of both', async () => {
    const output = join(dir, 'audit.sarif');
    const run = await cli([
      page('clean.html'),
      page('low-contrast.html'),
      '--format',
      'sarif',
      '--output',
      output,
    ]);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stderr, /^pass .*\/clean\.html: score \d+ \(grade A\); 0 critical, 0 serious/m);
    assert.match(
      run.stderr,
      /^FAIL .*\/low-contrast\.html: score \d+ \(grade [A-F]\); \d+ critical, [1-9]\d* serious/m,
    );
    assert.equal(run.stdout, '', 'with --output the document goes to the file');
    const sarif = JSON.parse(await readFile(output, 'utf8')) as {
      version: string;
      runs: { properties: { pages: string[] }; results: { ruleId: string; level: string }[] }[];
    };
    assert.equal(sarif.version, '2.1.0');
    assert.deepEqual(
      sarif.runs.map((run) => run.properties.pages[0]),
      [page('clean.html'), page('low-contrast.html')],
    );
    assert.ok(
      sarif.runs[1]!.results.some((result) => result.ruleId === 'color-contrast' && result.level === 'error'),
    );

    const clean = await cli([page('clean.html'), '--format', 'junit']);
    assert.equal(clean.status, 0, clean.stderr);
    assert.equal(XMLValidator.validate(clean.stdout), true);
    // Two pages' JUnit documents as one: a suite each, the root's counts their sums.
    const both = await cli([page('clean.html'), page('low-contrast.html'), '--format', 'junit']);
    assert.equal(both.status, 1, both.stderr);
    assert.equal(XMLValidator.validate(both.stdout), true);
    const suites = [...both.stdout.matchAll(/<testsuite name="([^"]+)" tests="(\d+)" failures="(\d+)"/g)];
    assert.deepEqual(
      suites.map((suite) => suite[1]),
      [page('clean.html'), page('low-contrast.html')],
    );
    const sum = (index: number) => suites.reduce((total, suite) => total + Number(suite[index]), 0);
    assert.ok(sum(3) > 0, 'the low-contrast page fails a check');
    assert.match(
      both.stdout,
      new RegExp(
        `<testsuites name="Accessibility audits" tests="${sum(2)}" failures="${sum(3)}" errors="0">`,
      ),
    );
  });

  it('--fail-on sets the severity that fails: never passes the serious page, minor fails on any issue', async () => {
    const lenient = await cli([page('low-contrast.html'), '--fail-on', 'never', '--format', 'earl']);
    assert.equal(lenient.status, 0, lenient.stderr);
    const earl = JSON.parse(lenient.stdout) as { '@graph': { result: { outcome: string } }[] };
    assert.ok(earl['@graph'].length > 0 && earl['@graph'].every((a) => a.result.outcome === 'earl:failed'));

    const strict = await cli([page('low-contrast.html'), '--fail-on', 'critical']);
    const counts = (JSON.parse(strict.stdout) as { issueCounts: Record<string, number> }[])[0]!.issueCounts;
    assert.equal(strict.status, counts.critical ? 1 : 0, strict.stderr);
  });

  it('audits a page behind a login with --header and --cookie, which the page without them hides', async () => {
    const [header, key] = MEMBER_CREDENTIALS.header;
    const [cookie, value] = MEMBER_CREDENTIALS.cookie;
    const outside = await cli([page('members.html')]);
    assert.equal(outside.status, 0, `the sign-in page is clean: ${outside.stderr}`);
    const inside = await cli([
      page('members.html'),
      '--header',
      `${header}: ${key}`,
      '--cookie',
      `${cookie}=${value}`,
    ]);
    assert.equal(inside.status, 1, `the members' page has an image without alt: ${inside.stderr}`);
    const [result] = JSON.parse(inside.stdout) as { issues: { wcagCriteria: string[] }[] }[];
    assert.ok(result!.issues.some((issue) => issue.wcagCriteria.includes('1.1.1')));
  });

  it('exits 2, naming the reason, when the command line is wrong or the audit cannot run', async () => {
    for (const [args, reason] of [
      [[], /give at least one URL/],
      [['ftp://example.com/'], /not an http\(s\) URL: ftp:\/\/example\.com\//],
      [[page('clean.html'), '--format', 'pdf'], /--format takes one of json, sarif, junit, earl \(not pdf\)/],
      [
        [page('clean.html'), '--fail-on', 'major'],
        /--fail-on takes one of critical, serious, moderate, minor, never/,
      ],
      [[page('clean.html'), '--crawl'], /--crawl and --max-pages go with --full/],
      [[page('clean.html'), '--header', 'Authorization'], /--header takes 'Name: value'/],
      [[page('clean.html'), '--cookie', 'session'], /--cookie takes name=value/],
    ] as const) {
      const run = await cli([...args]);
      assert.equal(run.status, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr, reason);
      assert.match(run.stderr, /usage: npm run audit --/);
    }
    const noToken = await cli([page('clean.html')], { AUDIT_API_TOKEN: '' });
    assert.deepEqual([noToken.status, /AUDIT_API_TOKEN is not set/.test(noToken.stderr)], [2, true]);
    // A read-only token may not start audits: the API's 403 is the reason given.
    const readOnly = await cli([page('clean.html')], { AUDIT_API_TOKEN: tokens.read });
    assert.equal(readOnly.status, 2, readOnly.stderr);
    assert.match(readOnly.stderr, /POST \/api\/audits\/instant answered 403: /);
    const refused = await cli(['http://127.0.0.1:1/private']);
    assert.equal(refused.status, 2, refused.stderr);
    assert.match(refused.stderr, /answered 422: url: /);
  });
});
