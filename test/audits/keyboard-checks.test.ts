import assert from 'node:assert/strict';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { expectIssue, instantClient, issuesUnder, type InstantClient } from './instant-client.ts';

// The project's own keyboard checks, run by a real Tab walk: one fixture page per rule, each
// asserting the category, the WCAG criterion and the offending element.
describe('instant audit keyboard checks (the Tab walk)', function () {
  this.timeout(60_000);
  let harness: AuditHarness;
  let client: InstantClient;
  const audit = (page: string) => client.audit(page, { checkCategories: ['keyboard'] });

  before(async () => {
    harness = await acquireAuditHarness();
    client = await instantClient(harness);
  });
  after(() => releaseAuditHarness());

  describe('keyboard traps (2.1.2)', () => {
    it('a trap made of the last controls of the page is found (all tab stops were visited by then)', async () => {
      const result = await audit('trap-at-end.html');
      expectIssue(result, {
        criterion: '2.1.2',
        category: 'keyboard',
        severity: 'critical',
        element: '#end-first',
      });
    });

    it('a modal dialog that keeps Tab inside but closes on Escape is not a trap, and the rest of the page is walked', async () => {
      const result = await audit('escape-modal.html');
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
      assert.deepEqual(issuesUnder(result, '2.1.1'), [], 'every control was reached after Escape');
    });
  });

  describe('unreachable controls (2.1.1)', () => {
    it('a div with role=button and no tabindex, and a click handler on a span, are keyboard issues', async () => {
      const result = await audit('keyboard-unreachable.html');
      for (const element of ['#fake-button', '#clicky']) {
        expectIssue(result, { criterion: '2.1.1', category: 'keyboard', severity: 'serious', element });
      }
    });

    it('a page with 200 links is walked to its end: no control is reported unreachable', async () => {
      const result = await audit('many-links.html?count=200');
      assert.deepEqual(issuesUnder(result, '2.1.1'), []);
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
    });
  });

  it('a URL with a fragment is still walked from the top of the page', async () => {
    const result = await audit('many-links.html?count=20#section-2');
    assert.deepEqual(issuesUnder(result, '2.1.1'), []);
  });

  it('focus order against the visual order (row-reverse flex) is a keyboard issue under 2.4.3', async () => {
    const result = await audit('focus-order.html');
    expectIssue(result, { criterion: '2.4.3', category: 'keyboard', element: '#step-two' });
    expectIssue(result, { criterion: '2.4.3', category: 'keyboard', element: '#step-three' });
  });

  it('a link whose focus outline is removed with nothing else shown is a keyboard issue under 2.4.7', async () => {
    const result = await audit('focus-visible.html');
    expectIssue(result, {
      criterion: '2.4.7',
      category: 'keyboard',
      severity: 'serious',
      element: '#plain-link',
    });
    assert.equal(
      issuesUnder(result, '2.4.7').some((issue) => issue.element === '#styled-link'),
      false,
      'a link with its own focus outline passes',
    );
  });

  describe('skip links (2.4.1)', () => {
    it('a skip link to an id that does not exist is broken', async () => {
      const result = await audit('skip-link-broken.html');
      expectIssue(result, {
        criterion: '2.4.1',
        category: 'keyboard',
        severity: 'serious',
        element: '#skip',
      });
    });

    it('a skip link hidden with display:none never receives focus, so it is broken', async () => {
      const result = await audit('skip-link-hidden.html');
      expectIssue(result, {
        criterion: '2.4.1',
        category: 'keyboard',
        severity: 'serious',
        element: '#skip',
      });
    });

    it('a skip link that is off-screen until focused is fine', async () => {
      const result = await audit('clean.html');
      assert.deepEqual(issuesUnder(result, '2.4.1'), []);
    });
  });
});
