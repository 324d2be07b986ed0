import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { INSTANT_TIMEOUT_MESSAGE } from '../../lib/audits.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import {
  expectAdvice,
  expectIssue,
  instantClient,
  issuesUnder,
  type InstantClient,
  type InstantResult,
} from './instant-client.ts';

describe('POST /api/audits/instant', function () {
  this.timeout(60_000);
  let harness: AuditHarness;
  let client: InstantClient;
  const audit = (page: string, body?: Record<string, unknown>) => client.audit(page, body);

  before(async () => {
    harness = await acquireAuditHarness();
    client = await instantClient(harness);
  });
  after(() => releaseAuditHarness());

  it('a clean page grades A with no critical or serious issues, its iframe and web component included', async () => {
    const result = await audit('clean.html');
    assert.equal(result.grade, 'A', JSON.stringify(result.topIssues));
    assert.ok(result.score >= 90);
    assert.equal(result.issueCounts.critical, 0);
    assert.equal(result.issueCounts.serious, 0);
    // Focus inside the frame and the shadow root is not focus stuck on the frame or the host.
    assert.deepEqual(issuesUnder(result, '2.1.2'), []);
    assert.deepEqual(issuesUnder(result, '2.1.1'), []);
  });

  describe('pages that move on (issue 17): audited as their address answered, never failed for moving', () => {
    it('a meta refresh at once: the document as loaded is audited, and a refresh of 0 s fails nothing', async () => {
      const result = await audit('refresh-now.html');
      assert.match(result.url, /\/refresh-now\.html$/);
      assert.deepEqual(issuesUnder(result, '2.2.1'), []);
    });

    it('a timed refresh is reported under 2.2.1, 2.2.4 and 3.2.5, and the audit sees the page it refreshes', async () => {
      const result = await audit('refresh-timed.html');
      assert.match(result.url, /\/refresh-timed\.html$/);
      const refresh = expectIssue(result, { criterion: '2.2.1', severity: 'critical' });
      assert.deepEqual(refresh.wcagCriteria, ['2.2.1', '2.2.4', '3.2.5']);
    });

    it('only the first valid refresh counts, as in a browser: a later one is never run (issue 35)', async () => {
      assert.deepEqual(issuesUnder(await audit('refresh-second.html'), '2.2.1'), []);
      const runs = await audit('refresh-first-invalid.html');
      assert.deepEqual(
        issuesUnder(runs, '2.2.1').map((issue) => issue.element),
        ['#every-5'],
        JSON.stringify(runs.issues),
      );
    });

    it('a refresh after more than 20 hours fails level AAA only (2.2.4, 3.2.5): a minor issue, named so', async () => {
      const result = await audit('refresh-daily.html');
      assert.deepEqual(issuesUnder(result, '2.2.1'), []);
      const aaa = expectIssue(result, { criterion: '2.2.4', severity: 'minor' });
      assert.deepEqual(aaa.wcagCriteria, ['2.2.4', '3.2.5']);
      assert.match(aaa.description, /^Level AAA: /);
      assert.equal(result.score, 100, JSON.stringify(result.issues));
    });

    it('a frame and an image that never arrive: the parsed document is audited, within the limit', async () => {
      const result = await audit('stalled-resources.html');
      expectIssue(result, { criterion: '1.1.1', element: '#no-alt' });
    });

    it('a script that sends the reader on while loading: the loaded document is audited', async () => {
      const result = await audit('script-redirect.html');
      assert.match(result.url, /\/script-redirect\.html$/);
      expectIssue(result, { criterion: '1.1.1', element: '#no-alt' });
    });

    for (const [page, how] of [
      ['refresh-unreachable.html', 'a meta refresh'],
      ['script-unreachable.html', 'a script'],
    ] as const) {
      it(`${how} sending the page to an address the audit may not reach: the document as loaded is audited (issue 35)`, async () => {
        const result = await audit(page);
        assert.match(result.url, new RegExp(`/${page.replace('.', '\\.')}$`));
        expectIssue(result, { criterion: '1.1.1', element: '#no-alt' });
      });
    }
  });

  it('reports level AAA failures at level AAA (issue 35): minor, named so, outside the score', async () => {
    const result = await audit('contrast-aa-only.html');
    assert.deepEqual(issuesUnder(result, '1.4.3'), []);
    const enhanced = expectIssue(result, { criterion: '1.4.6', element: '#grey', severity: 'minor' });
    assert.deepEqual(enhanced.wcagCriteria, ['1.4.6']);
    assert.match(enhanced.description, /^Level AAA: /);
    assert.equal(result.score, 100, JSON.stringify(result.issues));
    assert.equal(result.grade, 'A');
    assert.ok((result.issueCounts.minor ?? 0) >= 1, 'a level AAA issue is counted among the minor ones');
  });

  it('reports a page locked to one orientation by a CSS transform under 1.3.4 (issue 35), in a portrait viewport', async () => {
    const portrait = await audit('orientation-lock.html', { viewport: { width: 400, height: 800 } });
    expectIssue(portrait, { criterion: '1.3.4' });
    // Clean pages stay clean of it.
    assert.deepEqual(issuesUnder(await audit('clean.html'), '1.3.4'), []);
  });

  it('controls with a positive tabindex are reached first, not reported unreachable (issue 35: no false 2.1.1)', async () => {
    const result = await audit('positive-tabindex.html');
    assert.deepEqual(issuesUnder(result, '2.1.1'), [], JSON.stringify(result.issues, null, 1));
  });

  describe('frames (issue 17): axe runs in every frame, whatever its origin', () => {
    let result: Awaited<ReturnType<typeof audit>>;
    before(async () => {
      result = await audit('frames.html');
    });

    it('finds issues in a same-origin, a cross-origin and a srcdoc frame, named through the frame', () => {
      expectIssue(result, { criterion: '1.1.1', element: '#same-origin |> #logo' });
      expectIssue(result, { criterion: '4.1.2', element: '#cross-origin |> #nameless-field' });
      expectIssue(result, { criterion: '4.1.2', element: '#inline |> #nameless-button' });
    });

    it('reports a frame that takes its focusable content out of the tab order (2.1.1)', () => {
      const found = issuesUnder(result, '2.1.1').filter((issue) => issue.element.startsWith('#untabbable'));
      assert.equal(found.length, 1, JSON.stringify(result.issues, null, 1));
    });
  });

  it('a frame out of the tab order only while a modal dialog makes it inert fails nothing (issue 35, W3C ACT akn7bn)', async () => {
    const result = await audit('frame-behind-modal.html');
    // The other frame, out of the tab order for good, shows the rule ran and still reports it.
    assert.deepEqual(
      issuesUnder(result, '2.1.1').map((issue) => issue.element),
      ['#untabbable |> html'],
      JSON.stringify(result.issues, null, 1),
    );
  });

  it('focus resting inside aria-hidden content that axe reported already is one issue, on the hidden container', async () => {
    const result = await audit('aria-hidden-link.html');
    assert.deepEqual(
      issuesUnder(result, '4.1.2').map((issue) => issue.element),
      ['#hidden-box'],
      JSON.stringify(result.issues, null, 1),
    );
  });

  it('reports credential fields whose paste the page cancels under 3.3.8 (WCAG 2.2, issue 35), and no other field: not one whose handler puts the text in itself', async () => {
    const result = await audit('credential-paste.html');
    const blocked = issuesUnder(result, '3.3.8');
    assert.deepEqual(
      blocked.map((issue) => issue.element).sort(),
      ['#blocked-inline', '#blocked-listener', '#otp', '#user'],
      JSON.stringify(result.issues),
    );
    assert.ok(blocked.every((issue) => issue.severity === 'serious' && issue.category === 'forms'));
    assert.match(blocked.find((issue) => issue.element === '#otp')!.description, /this one-time-code field/);
  });

  it('reports text spacing set inline with !important (1.4.12): what axe reports, and lines tighter than axe sees (issue 35), each once', async () => {
    const result = await audit('inline-spacing.html');
    expectIssue(result, { criterion: '1.4.12', element: '#tight' });
    expectIssue(result, { criterion: '1.4.12', element: '#tighter', severity: 'serious' });
    assert.deepEqual(
      issuesUnder(result, '1.4.12')
        .map((issue) => issue.element)
        .sort(),
      ['#tight', '#tighter'],
    );
  });

  it('answers the spec instant result shape and stores it under an auditId', async () => {
    const result = await audit('clean.html');
    assert.deepEqual(Object.keys(result).sort(), [
      'auditId',
      'completedAt',
      'grade',
      'issueCounts',
      'issues',
      'score',
      'topIssues',
      'url',
      'wcagVersion',
    ]);
    assert.match(result.auditId, /^[0-9a-f-]{36}$/);
    assert.equal(result.wcagVersion, '2.2', 'the version checked (issue 35)');
    assert.deepEqual(Object.keys(result.issueCounts).sort(), ['critical', 'minor', 'moderate', 'serious']);
  });

  it('a keyboard trap (focus that cannot leave a widget) is a critical keyboard issue under 2.1.2', async () => {
    const result = await audit('keyboard-trap.html');
    expectIssue(result, {
      criterion: '2.1.2',
      category: 'keyboard',
      severity: 'critical',
      element: '#first',
    });
    assert.notEqual(result.grade, 'A');
  });

  it('a page without a skip link before its navigation, but with a main landmark, gets advice: 2.4.1 is met by the landmark', async () => {
    const result = await audit('no-skip-link.html');
    expectAdvice(result, { category: 'keyboard' });
    assert.deepEqual(issuesUnder(result, '2.4.1'), []);
  });

  it('an in-page link to an anchor that does not exist is keyboard advice, not a 2.4.1 failure', async () => {
    const result = await audit('broken-anchor.html');
    expectAdvice(result, { category: 'keyboard', element: '#reviews-link' });
    assert.deepEqual(
      result.topIssues.filter((issue) => issue.category === 'keyboard').map((issue) => issue.element),
      ['#reviews-link'],
      'links to an existing id (#pricing) or a[name] (#faq) are not broken',
    );
    assert.deepEqual(issuesUnder(result, '2.4.1'), []);
  });

  it('low-contrast text (1.4.3) and low-contrast controls (1.4.11) are contrast issues', async () => {
    const result = await audit('low-contrast.html');
    expectIssue(result, { criterion: '1.4.3', category: 'contrast', element: '#faint-text' });
    expectIssue(result, { criterion: '1.4.11', category: 'contrast', element: '#search' });
    // Under the minimum is under the enhanced ratio too, which axe's own AAA rule leaves out.
    expectIssue(result, { criterion: '1.4.6', element: '#faint-text', severity: 'minor' });
  });

  it('text over a gradient or a background image is judged from the pixels behind its letters (issue 35)', async () => {
    const result = await audit('contrast-over-images.html');
    const faint = expectIssue(result, {
      criterion: '1.4.3',
      element: '#runs-onto-black',
      severity: 'serious',
    });
    assert.match(faint.description, /background image or gradient has a contrast of \d\.\d\d:1/);
    expectIssue(result, { criterion: '1.4.6', element: '#runs-onto-black', severity: 'minor' });
    // Readable everywhere, or outlined by a halo: not a 1.4.3 failure; a drop shadow is no halo.
    assert.deepEqual(
      issuesUnder(result, '1.4.3')
        .map((issue) => issue.element)
        .sort(),
      ['#drop-shadow', '#runs-onto-black'],
    );
    // Enough for AA over the picture, not for AAA.
    expectIssue(result, { criterion: '1.4.6', element: '#aa-only', severity: 'minor' });
    assert.deepEqual(
      issuesUnder(result, '1.4.6')
        .map((issue) => issue.element)
        .sort(),
      ['#aa-only', '#drop-shadow', '#runs-onto-black'],
    );
  });

  it('a picture of text is an issue under 1.4.5 and 1.4.9, read by text recognition; a logo, shapes and real text over a picture are not (issue 35)', async () => {
    const result = await audit('images-of-text.html');
    const banner = expectIssue(result, {
      criterion: '1.4.5',
      element: '#banner',
      severity: 'moderate',
      category: 'images',
    });
    assert.match(banner.description, /shows the text “Summer sale/);
    assert.deepEqual(banner.wcagCriteria, ['1.4.5', '1.4.9']);
    // Drawn as a CSS background, and a small image button read at four times its size.
    expectIssue(result, { criterion: '1.4.5', element: '#hours' });
    expectIssue(result, { criterion: '1.4.5', element: '#search' });
    assert.deepEqual(
      issuesUnder(result, '1.4.5')
        .map((issue) => issue.element)
        .sort(),
      ['#banner', '#hours', '#search'],
    );
  });

  it('targets under 24 px that crowd each other fail 2.5.8 (WCAG 2.2); spaced ones and a link in a sentence do not (issue 35)', async () => {
    const result = await audit('target-size.html');
    const small = expectIssue(result, {
      criterion: '2.5.8',
      element: '#page-1',
      severity: 'serious',
      category: 'aria',
    });
    assert.match(small.description, /insufficient size/);
    assert.deepEqual(
      issuesUnder(result, '2.5.8')
        .map((issue) => issue.element)
        .sort(),
      ['#page-1', '#page-2', '#page-3'],
    );
  });

  it('an unlabeled input is a critical forms issue under 4.1.2', async () => {
    const result = await audit('unlabeled-input.html');
    expectIssue(result, {
      criterion: '4.1.2',
      category: 'forms',
      severity: 'critical',
      element: '#quantity',
    });
  });

  it('a control named by text from CSS (::before, ::after) is named, as the browser names it, and F87 is reported under 1.3.1', async () => {
    const result = await audit('css-names.html');
    const unnamed = issuesUnder(result, '4.1.2').map((issue) => issue.element);
    assert.deepEqual(
      unnamed.sort(),
      ['#blank', '#css-image', '#icon-font', '#nameless', '#star'],
      JSON.stringify(result.topIssues),
    );
    assert.deepEqual(issuesUnder(result, '2.4.4'), [], 'the link named by attr() was failed');
    const fromCss = result.topIssues
      .filter((issue) => issue.issueId.startsWith('name-from-css-'))
      .sort((a, b) => a.element.localeCompare(b.element));
    assert.deepEqual(
      fromCss.map(({ element, category, severity, wcagCriteria }) => ({
        element,
        category,
        severity,
        wcagCriteria,
      })),
      [
        { element: '#search', category: 'aria', severity: 'moderate', wcagCriteria: ['1.3.1'] },
        { element: '#email', category: 'forms', severity: 'moderate', wcagCriteria: ['1.3.1'] },
        { element: '#either', category: 'aria', severity: 'moderate', wcagCriteria: ['1.3.1'] },
        { element: '#home', category: 'aria', severity: 'moderate', wcagCriteria: ['1.3.1'] },
      ].sort((a, b) => a.element.localeCompare(b.element)),
    );
  });

  it('missing alt text, file-name alt, "image of" and alt repeating adjacent text are images issues under 1.1.1', async () => {
    const result = await audit('images.html');
    expectIssue(result, { criterion: '1.1.1', category: 'images', severity: 'critical', element: '#no-alt' });
    expectIssue(result, { criterion: '1.1.1', category: 'images', element: '#file-alt' });
    // Wordy or repeated alt text still gives the image a text alternative: advice, not 1.1.1.
    expectAdvice(result, { category: 'images', element: '#image-of' });
    expectAdvice(result, { category: 'images', element: '#duplicate' });
  });

  it('a skipped heading level is headings advice, not a 1.3.1 failure', async () => {
    const result = await audit('headings.html');
    expectAdvice(result, { category: 'headings', element: '#skipped' });
    assert.deepEqual(issuesUnder(result, '1.3.1'), []);
  });

  it('an error message in text but not tied to its field, and a personal-data field without autocomplete, are forms advice', async () => {
    const result = await audit('form-error.html');
    expectAdvice(result, { category: 'forms', element: '#email-problem' });
    expectAdvice(result, { category: 'forms', element: '#email' });
    assert.deepEqual(issuesUnder(result, '3.3.1'), []);
    assert.deepEqual(issuesUnder(result, '1.3.5'), []);
  });

  it('topIssues lists the 50 most severe issues; issueCounts counts every issue', async () => {
    const result = await audit('many-issues.html?count=60');
    assert.equal(result.topIssues.length, 50);
    assert.deepEqual(
      result.topIssues.filter((issue) => issue.severity !== 'critical'),
      [],
      'the minor issues are left out, never a critical one',
    );
    assert.equal(result.issueCounts.critical, 60);
    assert.ok((result.issueCounts.minor ?? 0) >= 2, JSON.stringify(result.issueCounts));
    // The whole list beside it: every issue counted, topIssues its first 50.
    const counted = Object.values(result.issueCounts).reduce((sum, n) => sum + n, 0);
    assert.equal(result.issues.length, counted);
    assert.deepEqual(result.topIssues, result.issues.slice(0, 50));
  });

  it('a page that cannot be loaded answers 422 naming url', async () => {
    const response = await client.request({ url: `${harness.fixtures.url}/hang-up` });
    assert.equal(response.status, 422, response.text);
    assert.match(response.body.error ?? '', /^url: The page could not be loaded/);
  });

  it('a page whose document is never parsed answers the instant limit, 422 naming url (not 500)', async () => {
    const response = await client.request({ url: `${harness.fixtures.url}/parse-never-ends.html` });
    assert.equal(response.status, 422, response.text);
    assert.equal(response.body.error, INSTANT_TIMEOUT_MESSAGE);
  });

  it('checkCategories limits the audit to the categories asked for', async () => {
    const result = await audit('images.html', { checkCategories: ['headings'] });
    assert.deepEqual(
      result.topIssues.filter((issue) => issue.category !== 'headings'),
      [],
    );
    assert.equal(result.grade, 'A');
  });

  it('checkCategories ["keyboard"] alone still runs axe, with only its keyboard rules', async () => {
    const result = await audit('keyboard-axe.html', { checkCategories: ['keyboard'] });
    // axe's scrollable-region-focusable: a scrolling region keyboard users cannot reach.
    expectIssue(result, { criterion: '2.1.1', category: 'keyboard', element: '#terms' });
    assert.deepEqual(
      result.topIssues.filter((issue) => issue.category !== 'keyboard'),
      [],
    );
  });

  it('an unknown check category answers 422 naming it', async () => {
    const response = await client.request({
      url: `${harness.fixtures.url}/clean.html`,
      checkCategories: ['colour'],
    });
    assert.equal(response.status, 422);
    assert.match(response.body.error ?? '', /^checkCategories\[0\]/);
  });

  it('answers 401 without a session', async () => {
    const response = await harness.api.request('POST', '/api/audits/instant', {
      body: { url: `${harness.fixtures.url}/clean.html` },
    });
    assert.equal(response.status, 401);
  });

  describe('the result in other formats (format), and read back (GET /api/audits/instant/:auditId)', () => {
    it('POST with format=sarif answers the SARIF log outside the envelope; the stored result reads back in every format', async () => {
      const url = `${harness.fixtures.url}/low-contrast.html`;
      const posted = await harness.api.request('POST', '/api/audits/instant?format=sarif', {
        token: client.token,
        body: { url },
      });
      assert.equal(posted.status, 200, posted.text);
      assert.equal(posted.headers.get('content-type'), 'application/sarif+json; charset=utf-8');
      const log = JSON.parse(posted.text) as {
        runs: { automationDetails: { id: string }; results: { ruleId: string; level: string }[] }[];
      };
      const auditId = /^instant-audit\/(.+)$/.exec(log.runs[0]!.automationDetails.id)![1]!;
      // Where the same document is read again, for a pipeline that asked for one format only.
      assert.equal(posted.headers.get('content-location'), `/api/audits/instant/${auditId}?format=sarif`);
      assert.ok(
        log.runs[0]!.results.some((result) => result.ruleId === 'color-contrast' && result.level === 'error'),
      );

      const read = (query = '', token = client.token) =>
        harness.api.request('GET', `/api/audits/instant/${auditId}${query}`, { token });
      const json = await read();
      assert.equal(json.status, 200, json.text);
      const stored = json.body.data as InstantResult;
      assert.deepEqual([stored.auditId, stored.url], [auditId, url]);
      assert.equal(stored.issues.length, log.runs[0]!.results.length);
      assert.deepEqual(stored.topIssues, stored.issues.slice(0, 50));
      const junit = await read('?format=junit');
      assert.equal(junit.headers.get('content-type'), 'application/xml; charset=utf-8');
      assert.match(junit.text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
      assert.match(
        junit.text,
        /<testcase classname="[^"]+low-contrast\.html" name="color-contrast \(WCAG 1\.4\.3\)"><failure type="serious"/,
      );
      const earl = await read('?format=earl');
      assert.equal(earl.headers.get('content-type'), 'application/ld+json; charset=utf-8');
      assert.equal((JSON.parse(earl.text) as { '@graph': unknown[] })['@graph'].length, stored.issues.length);
      assert.deepEqual((await read('?format=json')).body.data, stored);

      // Another organization's user: no such audit. An unknown id too; a format not offered is 422.
      const stranger = await instantClient(harness);
      assert.equal((await read('', stranger.token)).status, 404);
      assert.equal((await read('?format=sarif', stranger.token)).status, 404);
      const unknown = await harness.api.request('GET', `/api/audits/instant/${randomUUID()}`, {
        token: client.token,
      });
      assert.deepEqual([unknown.status, unknown.body.error], [404, 'Audit not found']);
      const pdf = await read('?format=pdf');
      assert.equal(pdf.status, 422, pdf.text);
      assert.match(pdf.body.error ?? '', /^format: /);
      const postedPdf = await harness.api.request('POST', '/api/audits/instant?format=pdf', {
        token: client.token,
        body: { url },
      });
      assert.equal(postedPdf.status, 422, 'an unknown format is refused before any audit runs');
    });
  });

  it("GET /api/audits lists the organization's audits newest first, by URL, paginated; never another organization's", async () => {
    const own = await instantClient(harness);
    const clean = `${harness.fixtures.url}/clean.html`;
    const contrast = `${harness.fixtures.url}/low-contrast.html`;
    const ids: string[] = [];
    for (const url of [clean, contrast, clean]) {
      const response = await own.request({ url });
      assert.equal(response.status, 200, response.text);
      ids.push((response.body.data as InstantResult).auditId);
    }
    const list = (query: string, token = own.token) =>
      harness.api.request('GET', `/api/audits${query}`, { token });
    const all = await list('');
    assert.equal(all.status, 200, all.text);
    const items = all.body.data as {
      auditId: string;
      kind: string;
      url: string;
      status: string;
      score: number;
    }[];
    assert.deepEqual(
      items.map((item) => item.auditId),
      [...ids].reverse(),
    );
    assert.deepEqual(all.body.metadata, { page: 1, limit: 20, total: 3 });
    assert.ok(
      items.every((item) => item.kind === 'instant' && item.status === 'complete' && item.score >= 0),
    );
    const byUrl = await list(`?url=${encodeURIComponent(clean)}`);
    assert.deepEqual(
      (byUrl.body.data as { auditId: string }[]).map((item) => item.auditId),
      [ids[2], ids[0]],
    );
    assert.equal((byUrl.body.metadata as { total: number }).total, 2);
    const second = await list('?limit=1&page=2');
    assert.deepEqual(
      (second.body.data as { auditId: string }[]).map((item) => item.auditId),
      [ids[1]],
    );
    assert.deepEqual(second.body.metadata, { page: 2, limit: 1, total: 3 });
    const stranger = await instantClient(harness);
    const none = await list('', stranger.token);
    assert.deepEqual(
      [none.status, none.body.data, (none.body.metadata as { total: number }).total],
      [200, [], 0],
    );
    for (const bad of ['?url=not-a-url', '?limit=101', '?page=0']) {
      const refused = await list(bad);
      assert.equal(refused.status, 422, `${bad}: ${refused.text}`);
    }
  });
});
