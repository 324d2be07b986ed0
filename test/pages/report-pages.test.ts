import assert from 'node:assert/strict';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { businessWithStudy, type TesterSession } from '../sessions/fixtures.ts';
import { countOf, escaped, PageClient } from './page-client.ts';
import { reportedStudy } from './study-fixtures.ts';

interface ApiReport {
  report: {
    overallScore: number;
    findings: { title: string; severity: string; plainEnglish: string; wcag: { criterion: string } | null }[];
  };
}
interface ApiStudyReport {
  report: { studyScore: number; sessionCount: number; topFindings: { title: string }[]; summary: string };
}

describe('the reports as pages: /reports/:id and /dashboard/jobs/:id/report', function () {
  this.timeout(120_000);
  let api: TestApi;
  let business: string;
  let jobId: string;
  let session: TesterSession;
  let reportId: string;
  const as = (jwt: string) => {
    const client = new PageClient(api.url);
    client.useSession(jwt);
    return client;
  };

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    ({ business, jobId, session, reportId } = await reportedStudy(api));
  });
  after(() => api.stop());

  it("the tester's dashboard links the report, which shows the score and every finding as the API has them", async () => {
    const tester = as(session.testerToken);
    const dashboard = await tester.get('/dashboard');
    assert.ok(dashboard.html.includes(`href="/reports/${reportId}"`), 'the dashboard links the report');
    const page = await tester.get(`/reports/${reportId}`);
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    const api3 = await api.request('GET', `/api/reports/${reportId}`, { token: session.testerToken });
    const { report } = api3.body.data as ApiReport;
    assert.ok(report.findings.length > 0, 'the session has confirmed findings');
    assert.match(page.html, new RegExp(`<dt>Overall score</dt><dd>${report.overallScore} of 100</dd>`));
    for (const finding of report.findings) {
      assert.ok(page.html.includes(escaped(finding.title)), `shows "${finding.title}"`);
      assert.ok(page.html.includes(escaped(finding.plainEnglish)), 'with its plain-English summary');
      if (finding.wcag) assert.ok(page.html.includes(`<dd>${finding.wcag.criterion} `), 'and its criterion');
    }
  });

  it("the study's business reads it from the study page; anyone else gets the 404 page, a visitor signs in first", async () => {
    const study = await as(business).get(`/dashboard/jobs/${jobId}`);
    assert.ok(study.html.includes(`href="/reports/${reportId}"`), 'the sessions table links the report');
    assert.equal((await as(business).get(`/reports/${reportId}`)).status, 200);
    const strangers = [
      await sessionToken((await createBusiness()).claims),
      await sessionToken(await createTester()),
    ];
    for (const jwt of strangers) assert.equal((await as(jwt).get(`/reports/${reportId}`)).status, 404);
    assert.equal((await as(business).get('/reports/not-an-id')).status, 404);
    const visitor = await new PageClient(api.url).get(`/reports/${reportId}`);
    assert.equal(visitor.status, 303);
    assert.equal(visitor.location, `/login?next=${encodeURIComponent(`/reports/${reportId}`)}`);
  });

  it("the study report: linked from the study page, its figures as the API has them, the organization's only", async () => {
    const path = `/dashboard/jobs/${jobId}/report`;
    const study = await as(business).get(`/dashboard/jobs/${jobId}`);
    assert.ok(study.html.includes(`href="${path}"`), 'the study page links its report');
    const page = await as(business).get(path);
    assert.equal(page.status, 200);
    assert.equal(countOf(page.html, /<h1>/), 1);
    const aggregate = await api.request('GET', `/api/reports/job/${jobId}`, { token: business });
    const { report } = aggregate.body.data as ApiStudyReport;
    assert.match(page.html, new RegExp(`<dt>Study score</dt><dd>${report.studyScore} of 100</dd>`));
    assert.match(page.html, new RegExp(`<dt>Sessions</dt><dd>${report.sessionCount}</dd>`));
    assert.ok(page.html.includes(escaped(report.summary)), 'its summary');
    for (const finding of report.topFindings) assert.ok(page.html.includes(escaped(finding.title)));
    // The tester reads the study (they test it) but not the organization's report of it.
    assert.equal((await as(session.testerToken).get(path)).status, 404);
    const other = await sessionToken((await createBusiness()).claims);
    assert.equal((await as(other).get(path)).status, 404);
  });

  it('per task: the study page charts completion, time and ease with a title, a description and a table each; the reports name each task', async () => {
    const study = await as(business).get(`/dashboard/jobs/${jobId}`);
    for (const [id, title] of [
      ['study-completion', 'Task completion'],
      ['study-time', 'Time on task'],
      ['study-ease', 'Ease'],
    ] as const) {
      assert.ok(study.html.includes(`<figcaption id="${id}-caption">${title}</figcaption>`), title);
      assert.ok(
        study.html.includes(`role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc"`),
        `${title}: the picture is named and described`,
      );
      assert.ok(study.html.includes(`<title id="${id}-title">${title}</title>`));
    }
    // One tester completed "Find a product" (ease 6) and gave up on "Pay" (ease 2).
    const description = /<desc id="study-completion-desc">([^<]*)<\/desc>/.exec(study.html)?.[1] ?? '';
    assert.match(
      description,
      /Task 1: Find a product: 1 of 1 completed, 100 % \(95 % interval \d+ % to 100 %\); 0 gave up\./,
    );
    assert.match(
      description,
      /Task 2: Pay: 0 of 1 completed, 0 % \(95 % interval 0 % to \d+ %\); 1 gave up\./,
    );
    assert.ok(
      study.html.includes('<th scope="row">Task 1: Find a product</th><td>6.0 of 7</td>'),
      'the ease table',
    );
    assert.ok(
      study.html.includes('<th scope="row">Task 2: Pay</th><td>no completed attempt yet</td>'),
      'the time table',
    );

    // The study report splits each task by kind of tester, and lists the barriers met in it.
    const report = await as(business).get(`/dashboard/jobs/${jobId}/report`);
    assert.match(report.html, /<h2>Tasks by kind of tester<\/h2>/);
    assert.match(report.html, /<h3 id="task-2-splits">Task 2: Pay<\/h3>/);
    assert.match(report.html, /<caption>Task 2, by country<\/caption>/);
    // Each barrier says which task it was met in (matched by the task's order)...
    assert.ok(
      report.html.includes(
        '<th scope="row">An error interrupted the task</th><td>Critical</td><td>3.3.1 Error Identification, level A</td><td>Task 2: Pay</td>',
      ),
      'the top barriers name their task',
    );
    // ...and is listed under it.
    assert.ok(
      report.html.includes(
        '<ul aria-label="Barriers in task 1"><li>A control did not respond as expected (High)',
      ),
    );
    assert.ok(
      report.html.includes(
        '<ul aria-label="Barriers in task 2"><li>An error interrupted the task (Critical)',
      ),
    );

    // The tester's report gives each finding's task as where it happened, and the review page names it.
    const tester = as(session.testerToken);
    const page = await tester.get(`/reports/${reportId}`);
    assert.ok(page.html.includes(escaped('in the task "Pay"')), "the report names the finding's task");
    // Its Tasks table: each attempt's outcome, time and ease, linked to the findings made in it.
    const rows = [...page.html.matchAll(/<tr><th scope="row">(Task \d: [^<]+)<\/th>(.*?)<\/tr>/g)];
    assert.deepEqual(
      rows.map(([, task, cells]) => [task, cells!.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')]),
      [
        ['Task 1: Find a product', '|done|40 s|6 of 7|1. A control did not respond as expected|'],
        ['Task 2: Pay', '|given up|40 s|2 of 7|2. An error interrupted the task|'],
      ],
    );
    assert.match(page.html, /<a href="#finding-[\w-]+">1\. A control did not respond as expected<\/a>/);
    const review = await tester.get(`/sessions/${session.sessionId}/review`);
    assert.equal(review.status, 200);
    assert.ok(review.html.includes('<dt>Task</dt><dd>Task 2: Pay</dd>'), 'the review page names the task');
  });

  it('a study without its report yet says what the report waits for', async () => {
    const fresh = await businessWithStudy(api, 3);
    const page = await as(fresh.business).get(`/dashboard/jobs/${fresh.jobId}/report`);
    assert.equal(page.status, 200);
    assert.match(page.html, /written once the sessions the study needs are confirmed/);
    const study = await as(fresh.business).get(`/dashboard/jobs/${fresh.jobId}`);
    assert.match(study.html, /written once the sessions the study needs are confirmed/);
    assert.doesNotMatch(study.html, /Read the study report/);
  });
});
