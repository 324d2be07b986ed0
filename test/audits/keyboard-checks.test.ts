import assert from 'node:assert/strict';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { JUMPED_PAST } from './fixture-server.ts';
import {
  expectAdvice,
  expectIssue,
  instantClient,
  issuesUnder,
  type InstantClient,
} from './instant-client.ts';

/** The elements reported under a criterion, sorted. */
const elementsUnder = (result: Parameters<typeof issuesUnder>[0], criterion: string) =>
  issuesUnder(result, criterion)
    .map((issue) => issue.element)
    .sort();

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
      assert.deepEqual(
        elementsUnder(result, '2.1.1'),
        [JUMPED_PAST.selector],
        'after Escape the walk reached the end of the page (only the control focus jumps past is unreachable)',
      );
    });

    it('a widget that keeps Tab inside is no trap when the page tells of a key that gets out, and the walk goes on past it (issue 35)', async () => {
      const result = await audit('told-trap.html');
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
      // The button after the editor shows no focus: reported only when the walk reached it.
      expectIssue(result, { criterion: '2.4.7', element: '#save' });
    });

    it('a way out the page tells of that does not work leaves the widget a trap (issue 35)', async () => {
      const result = await audit('told-trap-broken.html');
      expectIssue(result, { criterion: '2.1.2', severity: 'critical', element: '#title' });
      assert.deepEqual(elementsUnder(result, '2.4.7'), [], 'the walk stopped at the editor');
    });

    it('a field that pulls focus back a moment after each Tab leaves it is a trap; one that does so once is not (issue 35)', async () => {
      const result = await audit('pull-back.html');
      const trap = expectIssue(result, { criterion: '2.1.2', severity: 'critical', element: '#pulling' });
      assert.match(trap.description, /pulls keyboard focus back to this element a moment after it leaves/);
      assert.deepEqual(
        issuesUnder(result, '2.1.2').map((issue) => issue.element),
        ['#pulling'],
      );
    });

    it('a field that takes focus back only while it is empty is no trap: typing a value lets Tab leave (issue 35)', async () => {
      const result = await audit('pull-back-empty.html');
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
    });

    it('a trap inside an iframe is reported on the frame', async () => {
      const result = await audit('frame-trap.html');
      expectIssue(result, {
        criterion: '2.1.2',
        category: 'keyboard',
        severity: 'critical',
        element: '#calendar-frame',
      });
    });

    it('a trap inside a shadow root is reported on the element inside it', async () => {
      const result = await audit('shadow-trap.html');
      expectIssue(result, {
        criterion: '2.1.2',
        category: 'keyboard',
        severity: 'critical',
        element: '#composer >>> #to',
      });
    });

    it('an iframe with more than 100 tab stops keeps focus that long and is no trap; the walk goes on past it', async () => {
      const result = await audit('big-frame.html');
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
      assert.deepEqual(elementsUnder(result, '2.1.1'), [JUMPED_PAST.selector], 'the walk reached the end');
    });
  });

  describe('unreachable controls (2.1.1)', () => {
    it('a div with role=button and no tabindex, and a click handler on a span, are keyboard issues', async () => {
      const result = await audit('keyboard-unreachable.html');
      for (const element of ['#fake-button', '#clicky']) {
        expectIssue(result, { criterion: '2.1.1', category: 'keyboard', severity: 'serious', element });
      }
    });

    it('click handlers added by script to a span and a div (or set as a property) are keyboard issues; delegating containers are not', async () => {
      const result = await audit('scripted-click.html');
      for (const element of ['#script-span', '#script-card', '#property-span']) {
        expectIssue(result, { criterion: '2.1.1', category: 'keyboard', severity: 'serious', element });
      }
      assert.deepEqual(
        elementsUnder(result, '2.1.1'),
        ['#property-span', '#script-card', '#script-span'],
        'not the button, the span inside it, the list of buttons, the large feed, html or body',
      );
    });

    it('a radio group is one tab stop: its other buttons are not unreachable, whether one is checked or none', async () => {
      const result = await audit('radio-groups.html');
      assert.deepEqual(elementsUnder(result, '2.1.1'), ['#fake-button']);
    });

    it('a page with 200 links is walked to its end: only the control focus jumps past is unreachable', async () => {
      const result = await audit('many-links.html?count=200');
      assert.deepEqual(elementsUnder(result, '2.1.1'), [JUMPED_PAST.selector]);
      assert.deepEqual(issuesUnder(result, '2.1.2'), []);
      assert.equal(result.topIssues.some(isIncompleteWalk), false);
    });
  });

  it('a walk that runs out of Tab presses says so with a minor keyboard issue, and reports nothing unreachable', async () => {
    // 2,000 links: more tab stops than the walk's 1,500 presses (or its time) can pass.
    const result = await audit('many-links.html?count=2000');
    const incomplete = result.topIssues.filter(isIncompleteWalk);
    assert.equal(incomplete.length, 1, JSON.stringify(result.topIssues));
    assert.equal(incomplete[0]!.category, 'keyboard');
    assert.equal(incomplete[0]!.severity, 'minor');
    assert.deepEqual(incomplete[0]!.wcagCriteria, []);
    assert.match(incomplete[0]!.description, /keyboard walk stopped after \d+ Tab presses/);
    assert.deepEqual(issuesUnder(result, '2.1.1'), [], 'a walk cut short proves nothing unreachable');
  });

  it('a URL with a fragment is still walked from the top of the page', async () => {
    const result = await audit('many-links.html?count=20#section-2');
    assert.deepEqual(elementsUnder(result, '2.1.1'), [JUMPED_PAST.selector]);
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

  it('focus resting inside aria-hidden content is a 4.1.2 failure; a sentinel that passes focus on is not (issue 35, W3C ACT 6cfa84)', async () => {
    const result = await audit('aria-hidden-sentinels.html');
    assert.deepEqual(
      issuesUnder(result, '4.1.2').map((issue) => [issue.element, issue.category, issue.severity]),
      [['#broken-sentinel', 'keyboard', 'serious']],
      JSON.stringify(result.issues, null, 1),
    );
    // Placed off the page, the sentinels have no place in the layout: not a focus order against it.
    assert.deepEqual(issuesUnder(result, '2.4.3'), []);
  });

  it('a control that a fixed banner hides entirely when it takes focus fails 2.4.11, one it hides in part 2.4.12 (WCAG 2.2, issue 35)', async () => {
    const result = await audit('focus-obscured.html');
    const obscured = result.topIssues.filter((issue) => /behind #cookie-banner/.test(issue.description));
    assert.deepEqual(
      obscured.map((issue) => [issue.element, issue.wcagCriteria, issue.severity]).sort(),
      [
        ['#hidden-link', ['2.4.11'], 'serious'],
        ['#partly-link', ['2.4.12'], 'minor'],
      ],
      JSON.stringify(result.topIssues, null, 1),
    );
    // Neither the link in plain sight nor the banner's own button counts as hidden (the list above).
  });

  describe("the page's state (issue 17): what the page took out of use is not expected to take focus", () => {
    it('content made inert by an open modal dialog (showModal) or the inert attribute is not unreachable', async () => {
      const result = await audit('modal-open.html');
      assert.deepEqual(elementsUnder(result, '2.1.1'), [], JSON.stringify(result.issues, null, 1));
    });

    it('disabled and aria-disabled widgets (a disabled fieldset too) are not unreachable; an enabled one still is', async () => {
      const result = await audit('disabled-widgets.html');
      assert.deepEqual(elementsUnder(result, '2.1.1'), ['#enabled-widget']);
      // A focusable aria-disabled control is still a tab stop whose focus indicator is checked.
      assert.deepEqual(elementsUnder(result, '2.4.7'), ['#aria-disabled-button']);
    });

    it('focus drawn on the parent, a sibling or the label counts as visible; none at all is still 2.4.7', async () => {
      const result = await audit('focus-neighbour.html');
      assert.deepEqual(elementsUnder(result, '2.4.7'), ['#plain-link']);
    });

    it('a region that scrolls only into its own padding is not scrollable; one with more content fails 2.1.1', async () => {
      const result = await audit('scroll-padding.html');
      assert.deepEqual(elementsUnder(result, '2.1.1'), ['#real-scroll']);
    });
  });

  describe('skip links (2.4.1)', () => {
    // A main landmark or a heading meets 2.4.1 by itself: a broken skip link beside one is advice.
    it('a skip link to an id that does not exist is broken: advice beside a main landmark', async () => {
      const result = await audit('skip-link-broken.html');
      expectAdvice(result, { category: 'keyboard', severity: 'serious', element: '#skip' });
      assert.deepEqual(issuesUnder(result, '2.4.1'), []);
    });

    it('a broken skip link that is the only way past the navigation (no landmark, no heading) fails 2.4.1', async () => {
      const result = await audit('skip-link-only-bypass.html');
      expectIssue(result, {
        criterion: '2.4.1',
        category: 'keyboard',
        severity: 'serious',
        element: '#skip',
      });
    });

    it('a skip link hidden with display:none never receives focus, so it is broken', async () => {
      const result = await audit('skip-link-hidden.html');
      expectAdvice(result, { category: 'keyboard', severity: 'serious', element: '#skip' });
    });

    it('a skip link that is off-screen until focused is fine', async () => {
      const result = await audit('clean.html');
      assert.deepEqual(issuesUnder(result, '2.4.1'), []);
    });

    it('a first link to a section inside the main content is no skip link: five tab stops before main, skip link missing', async () => {
      const result = await audit('first-link-not-skip.html');
      const missing = expectAdvice(result, {
        category: 'keyboard',
        severity: 'moderate',
        element: '#about-link',
      });
      assert.match(missing.description, /5 tab stops come before the main content and there is no skip link/);
    });

    it('a first link to the element holding the main content is a skip link, whatever its words', async () => {
      const result = await audit('first-link-to-main.html');
      assert.deepEqual(issuesUnder(result, '2.4.1'), []);
    });
  });
});

/** The walk's own note that it stopped early (issue ids start with the check's name). */
function isIncompleteWalk(issue: { issueId: string }): boolean {
  return issue.issueId.startsWith('keyboard-walk-incomplete-');
}
