import assert from 'node:assert/strict';
import type { BusinessFixture } from '../support/factories.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';

interface Issue {
  issueId: string;
  category: string;
  severity: string;
  element: string;
  description: string;
  wcagCriteria: string[];
}
interface InstantResult {
  auditId: string;
  url: string;
  score: number;
  grade: string;
  topIssues: Issue[];
  issueCounts: Record<string, number>;
  completedAt: string;
}

describe('POST /api/audits/instant', function () {
  this.timeout(60_000);
  let harness: AuditHarness;
  let business: BusinessFixture;
  let token: string;

  before(async () => {
    harness = await acquireAuditHarness();
    business = await createBusiness('pro');
    token = await sessionToken(business.claims);
  });
  after(() => releaseAuditHarness());

  async function audit(page: string, body: Record<string, unknown> = {}): Promise<InstantResult> {
    const response = await harness.api.request('POST', '/api/audits/instant', {
      token,
      body: { url: `${harness.fixtures.url}/${page}`, ...body },
    });
    assert.equal(response.status, 200, response.text);
    return response.body.data as InstantResult;
  }

  function expectIssue(result: InstantResult, match: Partial<Issue> & { criterion: string }): Issue {
    const { criterion, ...fields } = match;
    const found = result.topIssues.find(
      (issue) =>
        issue.wcagCriteria.includes(criterion) &&
        Object.entries(fields).every(([key, value]) => issue[key as keyof Issue] === value),
    );
    assert.ok(found, `expected ${JSON.stringify(match)} among ${JSON.stringify(result.topIssues, null, 1)}`);
    return found;
  }

  it('a clean page grades A with no critical or serious issues', async () => {
    const result = await audit('clean.html');
    assert.equal(result.grade, 'A', JSON.stringify(result.topIssues));
    assert.ok(result.score >= 90);
    assert.equal(result.issueCounts.critical, 0);
    assert.equal(result.issueCounts.serious, 0);
  });

  it('answers the spec instant result shape and stores it under an auditId', async () => {
    const result = await audit('clean.html');
    assert.deepEqual(Object.keys(result).sort(), [
      'auditId',
      'completedAt',
      'grade',
      'issueCounts',
      'score',
      'topIssues',
      'url',
    ]);
    assert.match(result.auditId, /^[0-9a-f-]{36}$/);
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

  it('a page without a skip link before its navigation is a keyboard issue under 2.4.1', async () => {
    const result = await audit('no-skip-link.html');
    expectIssue(result, { criterion: '2.4.1', category: 'keyboard' });
  });

  it('an in-page link to an anchor that does not exist is a keyboard issue under 2.4.1', async () => {
    const result = await audit('broken-anchor.html');
    expectIssue(result, { criterion: '2.4.1', category: 'keyboard', element: '#reviews-link' });
    const flagged = result.topIssues.filter((issue) => issue.wcagCriteria.includes('2.4.1'));
    assert.deepEqual(
      flagged.map((issue) => issue.element),
      ['#reviews-link'],
      'links to an existing id (#pricing) or a[name] (#faq) are not broken',
    );
  });

  it('low-contrast text (1.4.3) and low-contrast controls (1.4.11) are contrast issues', async () => {
    const result = await audit('low-contrast.html');
    expectIssue(result, { criterion: '1.4.3', category: 'contrast', element: '#faint-text' });
    expectIssue(result, { criterion: '1.4.11', category: 'contrast', element: '#search' });
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

  it('missing alt text, file-name alt, "image of" and alt repeating adjacent text are images issues under 1.1.1', async () => {
    const result = await audit('images.html');
    expectIssue(result, { criterion: '1.1.1', category: 'images', severity: 'critical', element: '#no-alt' });
    expectIssue(result, { criterion: '1.1.1', category: 'images', element: '#file-alt' });
    expectIssue(result, { criterion: '1.1.1', category: 'images', element: '#image-of' });
    expectIssue(result, { criterion: '1.1.1', category: 'images', element: '#duplicate' });
  });

  it('a skipped heading level is a headings issue under 1.3.1', async () => {
    const result = await audit('headings.html');
    expectIssue(result, { criterion: '1.3.1', category: 'headings', element: '#skipped' });
  });

  it('an error message not tied to its field is a forms issue under 3.3.1; a personal-data field without autocomplete under 1.3.5', async () => {
    const result = await audit('form-error.html');
    expectIssue(result, { criterion: '3.3.1', category: 'forms', element: '#email-problem' });
    expectIssue(result, { criterion: '1.3.5', category: 'forms', element: '#email' });
  });

  it('checkCategories limits the audit to the categories asked for', async () => {
    const result = await audit('images.html', { checkCategories: ['headings'] });
    assert.deepEqual(
      result.topIssues.filter((issue) => issue.category !== 'headings'),
      [],
    );
    assert.equal(result.grade, 'A');
  });

  it('an unknown check category answers 422 naming it', async () => {
    const response = await harness.api.request('POST', '/api/audits/instant', {
      token,
      body: { url: `${harness.fixtures.url}/clean.html`, checkCategories: ['colour'] },
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
});
