import assert from 'node:assert/strict';
import { createBusiness, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { eventually } from './polling.ts';
import { startReceiver, subscribe, type Receiver } from '../webhooks/receiver.ts';
import { verifyWebhook } from '../webhooks/verify-example.ts';

const WEBHOOK_SECRET = `whsec_${'a'.repeat(43)}`;

interface AuditJob {
  auditJobId: string;
  url: string;
  crawl: boolean;
  maxPages: number;
  status: string;
  estimatedCompletionMinutes: number;
  reportDeliveredTo: string[];
  queuedAt: string;
  progress?: { pagesDone: number; pagesPlanned: number };
  startedAt?: string | null;
  completedAt?: string | null;
  error?: string | null;
  result?: {
    score: number;
    grade: string;
    wcagVersion: string;
    issueCounts: Record<string, number>;
    pages: { url: string; issueCounts: Record<string, number> }[];
    remediation: unknown[];
    issues: {
      issueId: string;
      pageUrl: string;
      severity: string;
      category: string;
      element: string;
      description: string;
      wcagCriteria: string[];
    }[];
  } | null;
}

describe('POST /api/audits/full and GET /api/audits/:auditJobId', function () {
  this.timeout(120_000);
  let harness: AuditHarness;
  let business: BusinessFixture;
  let token: string;
  let requesterEmail: string;
  let receiver: Receiver;

  before(async () => {
    harness = await acquireAuditHarness();
    receiver = await startReceiver();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
    requesterEmail = await asSystem(
      testDatabase(),
      async (tx) =>
        (
          await tx
            .selectFrom('users')
            .select('email')
            .where('id', '=', business.userId)
            .executeTakeFirstOrThrow()
        ).email,
    );
  });
  after(async () => {
    await receiver?.stop();
    await releaseAuditHarness();
  });

  async function read(id: string): Promise<AuditJob> {
    const response = await harness.api.request('GET', `/api/audits/${id}`, { token });
    assert.equal(response.status, 200, response.text);
    return response.body.data as AuditJob;
  }

  async function waitUntilDone(id: string, seen: Set<string>): Promise<AuditJob> {
    let job: AuditJob | undefined;
    const done = await eventually(async () => {
      job = await read(id);
      seen.add(job.status);
      return job.status === 'complete' || job.status === 'failed';
    }, 100_000);
    assert.ok(done && job, `audit ${id} did not end: ${JSON.stringify(job)}`);
    return job;
  }

  it('answers 202 queued at once; the job runs to complete and its report is emailed to the recipients and the requester', async () => {
    // The organization's webhook endpoint hears audit.completed once the report is out.
    await subscribe(business, receiver.url, ['audit.completed'], WEBHOOK_SECRET);
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: {
        url: `${harness.fixtures.url}/site/page-1.html`,
        crawl: true,
        maxPages: 3,
        reportTitle: 'Site audit',
        // Lower-cased and deduplicated, the requester's own address included.
        recipientEmails: ['Lead@Example.com', 'lead@example.com', requesterEmail.toUpperCase()],
      },
    });
    assert.equal(response.status, 202, response.text);
    const queued = response.body.data as AuditJob;
    assert.equal(queued.status, 'queued');
    assert.deepEqual(queued.reportDeliveredTo, [requesterEmail, 'lead@example.com']);
    assert.equal(queued.maxPages, 3);
    assert.equal(queued.estimatedCompletionMinutes, 3, 'crawling: min(5, 2 + ceil(maxPages / 10))');

    const seen = new Set<string>(['queued']);
    const done = await waitUntilDone(queued.auditJobId, seen);
    assert.equal(done.status, 'complete', JSON.stringify(done));
    assert.deepEqual(done.progress, { pagesDone: 3, pagesPlanned: 3 });
    // At most maxPages pages of the same origin: page-1's first link, to another origin
    // ({{CROSS_ORIGIN}}: the same server as localhost), is never followed.
    assert.deepEqual(
      done.result?.pages.map((page) => page.url),
      ['page-1', 'page-2', 'page-3'].map((name) => `${harness.fixtures.url}/site/${name}.html`),
    );
    assert.equal(done.result?.wcagVersion, '2.2');
    assert.ok(done.startedAt && done.completedAt && done.startedAt <= done.completedAt, JSON.stringify(done));
    assert.ok(done.result && done.result.remediation.length > 0);
    // The whole issue list: every issue of every page, each naming its page, as many as the pages count.
    const counted = done.result.pages.reduce(
      (sum, page) => sum + Object.values(page.issueCounts).reduce((a, b) => a + b, 0),
      0,
    );
    assert.equal(done.result.issues.length, counted);
    const pageUrls = new Set(done.result.pages.map((page) => page.url));
    assert.ok(
      done.result.issues.every((issue) => pageUrls.has(issue.pageUrl) && Array.isArray(issue.wcagCriteria)),
    );

    // Listed among the organization's audits, with its score (issue 35).
    const listed = await harness.api.request(
      'GET',
      `/api/audits?url=${encodeURIComponent(`${harness.fixtures.url}/site/page-1.html`)}`,
      { token },
    );
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(
      (listed.body.data as { auditId: string; kind: string; status: string; score: number | null }[]).find(
        (item) => item.auditId === queued.auditJobId,
      ),
      {
        auditId: queued.auditJobId,
        kind: 'full',
        url: queued.url,
        status: 'complete',
        score: done.result.score,
        grade: done.result.grade,
        issueCounts: done.result.issueCounts,
        requestedAt: queued.queuedAt,
        completedAt: done.completedAt,
      },
    );

    // The same result for a pipeline (issue 35): SARIF, JUnit XML and EARL, outside the envelope.
    const formatted = (format: string) =>
      harness.api.request('GET', `/api/audits/${queued.auditJobId}?format=${format}`, { token });
    const sarif = await formatted('sarif');
    assert.equal(sarif.status, 200, sarif.text);
    assert.equal(sarif.headers.get('content-type'), 'application/sarif+json; charset=utf-8');
    const log = JSON.parse(sarif.text) as {
      runs: {
        properties: { pages: string[] };
        results: { partialFingerprints: { 'issueId/v1': string } }[];
      }[];
    };
    assert.deepEqual(
      log.runs[0]!.properties.pages,
      done.result.pages.map((page) => page.url),
    );
    assert.deepEqual(
      log.runs[0]!.results.map((result) => result.partialFingerprints['issueId/v1']),
      done.result.issues.map((issue) => issue.issueId),
    );
    const junit = await formatted('junit');
    assert.equal(junit.headers.get('content-type'), 'application/xml; charset=utf-8');
    assert.equal(junit.text.match(/<testsuite /g)?.length, 3);
    const earl = await formatted('earl');
    assert.equal(earl.headers.get('content-type'), 'application/ld+json; charset=utf-8');
    assert.equal(
      (JSON.parse(earl.text) as { '@graph': unknown[] })['@graph'].length,
      done.result.issues.length,
    );

    const mail = await harness.mail.waitFor('lead@example.com', 30_000);
    assert.match(mail.subject ?? '', /^Site audit: \d+\/100, grade [A-F]$/);
    const recipients = (Array.isArray(mail.to) ? mail.to : [mail.to]).flatMap((to) =>
      to?.value.map((v) => v.address),
    );
    assert.ok(recipients.includes(requesterEmail));
    const html = String(mail.html);
    assert.match(html, /Overall score: \d+ \/ 100 \(grade [A-F]\)/);
    assert.match(html, /<h2>Pages<\/h2>/);
    assert.match(html, /WCAG 1\.1\.1/);
    assert.match(html, /Remediation, most important first/);
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
    assert.ok(
      pdf && pdf.content.subarray(0, 5).toString() === '%PDF-',
      'a PDF printed by Chromium is attached',
    );
    // Tagged, with a structure tree screen readers read, and an outline of the report's headings.
    const printed = pdf.content.toString('latin1');
    assert.match(printed, /\/StructTreeRoot \d+ 0 R/, 'the PDF is tagged');
    assert.match(printed, /\/MarkInfo <<\/Type \/MarkInfo\s+\/Marked true>>/);
    assert.match(printed, /\/Lang \(en\)/);
    assert.match(printed, /\/Outlines \d+ 0 R/, 'the PDF has an outline');
    const screenshots = mail.attachments.filter((a) => a.contentType === 'image/png');
    assert.ok(screenshots.length >= 1, 'critical issues (missing alt) come with annotated screenshots');
    // The images are inline parts of the mail, shown where the issue is listed.
    assert.ok(screenshots.every((a) => a.cid));
    assert.match(html, /alt="Screenshot with the element outlined in red"/);

    const [delivery] = await receiver.waitFor(1, 30_000);
    assert.equal(delivery!.body.type, 'audit.completed');
    assert.deepEqual(delivery!.body.data.object, {
      auditId: queued.auditJobId,
      url: queued.url,
      status: 'complete',
    });
    assert.ok(
      verifyWebhook(delivery!.rawBody, String(delivery!.headers['webhook-signature']), WEBHOOK_SECRET),
    );
  });

  it('GET shows running with progress (pages done of planned) while the pages are audited', async () => {
    // The second page waits until the test has seen the job running with the first page done.
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/progress/start.html`, crawl: true, maxPages: 2 },
    });
    const id = (response.body.data as AuditJob).auditJobId;
    let running: AuditJob | undefined;
    try {
      assert.ok(
        await eventually(async () => {
          const job = await read(id);
          if (job.status === 'running' && job.progress?.pagesDone === 1) running = job;
          return !!running || job.status === 'complete' || job.status === 'failed';
        }),
      );
      // A document of the result is only for a completed job: its format is refused meanwhile.
      const early = await harness.api.request('GET', `/api/audits/${id}?format=sarif`, { token });
      assert.equal(early.status, 409, early.text);
      assert.equal(
        early.body.error,
        'The audit job is running: format sarif is answered once it is completed (format=json shows its progress)',
      );
    } finally {
      harness.fixtures.release('progress');
    }
    assert.equal(running?.status, 'running', 'the job was seen running');
    assert.deepEqual(running.progress, { pagesDone: 1, pagesPlanned: 2 });
    assert.equal(running.result ?? null, null, 'no result before the job is complete');
    const done = await waitUntilDone(id, new Set());
    assert.equal(done.status, 'complete');
    assert.deepEqual(done.progress, { pagesDone: 2, pagesPlanned: 2 });
  });

  it('help placed differently on one crawled page is reported on that page under 3.2.6 (WCAG 2.2), and scored there', async () => {
    // Three pages share a navigation with a "Help centre" link; team.html has it in the footer.
    const site = `${harness.fixtures.url}/help-site`;
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${site}/index.html`, crawl: true, maxPages: 3 },
    });
    assert.equal(response.status, 202, response.text);
    const done = await waitUntilDone((response.body.data as AuditJob).auditJobId, new Set());
    assert.equal(done.status, 'complete', JSON.stringify(done));
    assert.deepEqual(
      done.result?.pages.map((page) => page.url),
      ['index', 'plans', 'team'].map((name) => `${site}/${name}.html`),
    );
    const help = done.result.issues.filter((issue) => issue.wcagCriteria.includes('3.2.6'));
    assert.equal(help.length, 1, JSON.stringify(done.result.issues));
    const [issue] = help;
    assert.equal(issue!.pageUrl, `${site}/team.html`);
    assert.equal(issue!.category, 'aria');
    assert.equal(issue!.severity, 'moderate');
    assert.equal(issue!.element, 'body > footer > a:nth-of-type(3)');
    assert.match(issue!.description, /^"Help centre" \(a self-help option\) is placed differently/);
    // Counted and scored on its page: the page's counts hold it, and the remediation names its fix.
    const team = done.result.pages.find((page) => page.url === issue!.pageUrl)!;
    assert.equal(
      team.issueCounts.moderate,
      done.result.issues.filter((i) => i.pageUrl === team.url && i.severity === 'moderate').length,
    );
    assert.match(JSON.stringify(done.result.remediation), /same place in every page template/);
  });

  it('without crawl only the given page is audited', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/site/page-1.html`, maxPages: 10 },
    });
    const done = await waitUntilDone((response.body.data as AuditJob).auditJobId, new Set());
    assert.deepEqual(done.progress, { pagesDone: 1, pagesPlanned: 1 });
    assert.equal(done.estimatedCompletionMinutes, 2, 'one page whatever maxPages says');
  });

  it('a crawled page that cannot be loaded is skipped but counted; the job completes with the others', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/partial/start.html`, crawl: true, maxPages: 3 },
    });
    assert.equal(response.status, 202, response.text);
    const done = await waitUntilDone((response.body.data as AuditJob).auditJobId, new Set());
    assert.equal(done.status, 'complete', JSON.stringify(done));
    assert.deepEqual(done.progress, { pagesDone: 3, pagesPlanned: 3 });
    assert.deepEqual(
      done.result?.pages.map((page) => page.url),
      ['partial/start.html', 'site/page-8.html'].map((path) => `${harness.fixtures.url}/${path}`),
    );
  });

  it('more than 20 recipients answer 422 naming recipientEmails', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: {
        url: `${harness.fixtures.url}/clean.html`,
        recipientEmails: Array.from({ length: 21 }, (_, i) => `reader-${i}@example.com`),
      },
    });
    assert.equal(response.status, 422, response.text);
    assert.match(response.body.error ?? '', /^recipientEmails: /);
  });

  it('maxPages above 50 answers 422', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/site/page-1.html`, crawl: true, maxPages: 51 },
    });
    assert.equal(response.status, 422);
    assert.match(response.body.error ?? '', /^maxPages: /);
  });

  it('a page that cannot be loaded ends the job failed with the reason', async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/hang-up` },
    });
    const done = await waitUntilDone((response.body.data as AuditJob).auditJobId, new Set());
    assert.equal(done.status, 'failed');
    assert.match(done.error ?? '', /^url: The page could not be loaded/);
  });

  it("another organization's user gets 404 for the job", async () => {
    const response = await harness.api.request('POST', '/api/audits/full', {
      token,
      body: { url: `${harness.fixtures.url}/clean.html` },
    });
    const id = (response.body.data as AuditJob).auditJobId;
    const stranger = await sessionToken((await createBusiness()).claims);
    const read = await harness.api.request('GET', `/api/audits/${id}`, { token: stranger });
    assert.equal(read.status, 404);
    await waitUntilDone(id, new Set());
  });
});
