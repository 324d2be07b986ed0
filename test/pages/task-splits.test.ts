import assert from 'node:assert/strict';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { TaskSplits } from '../../api/pages/shared/task-results.tsx';
import { MIN_GROUP_TESTERS, taskResults, type EndedAttempt } from '../../lib/analysis/task-results.ts';

// The study report page's split of a task by kind of tester (api/pages/shared/task-results.tsx):
// completion by group as a chart beside each split's table, unless the split is withheld.
describe('a task split by kind of tester (the study report page)', () => {
  const attempt = (
    testerId: string,
    outcome: EndedAttempt['outcome'],
    screenReader: boolean,
    country: string,
  ): EndedAttempt => ({
    order: 1,
    testerId,
    variant: null,
    outcome,
    activeMs: 60_000,
    ease: outcome === 'completed' ? 6 : 2,
    device: 'desktop',
    country,
    assistiveTechnologies: screenReader ? ['screen_reader'] : [],
    successReached: null,
  });
  // Five screen-reader users (one completed) and five others (all completed), in GB but one in IE.
  const attempts = [
    ...['a', 'b', 'c', 'd', 'e'].map((id, i) => attempt(id, i === 0 ? 'completed' : 'abandoned', true, 'GB')),
    ...['f', 'g', 'h', 'i', 'j'].map((id, i) => attempt(id, 'completed', false, i === 0 ? 'IE' : 'GB')),
  ];
  const [results] = taskResults([{ order: 1, successPage: null }], attempts);
  const html = renderToString(
    h(TaskSplits, { task: { ...results!, title: 'Pay' }, minimumGroupTesters: MIN_GROUP_TESTERS }),
  );

  it('charts completion per group with its interval, named and described, beside the table', () => {
    const id = 'task-1-byAssistiveTechnology';
    assert.ok(html.includes(`<title id="${id}-title">Task 1, completion by assistive technology</title>`));
    assert.match(
      html,
      new RegExp(`<svg role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc"`),
    );
    const description = new RegExp(`<desc id="${id}-desc">([^<]*)</desc>`).exec(html)?.[1] ?? '';
    assert.match(description, /none: 5 of 5 completed, 100 % \(95 % interval \d+ % to 100 %\); 0 gave up\./);
    assert.match(
      description,
      /screen reader: 1 of 5 completed, 20 % \(95 % interval \d+ % to \d+ %\); 4 gave up\./,
    );
    // One bar per group, each with its interval whisker (a halo and a line).
    const chart = html.slice(
      html.indexOf(`<title id="${id}-title">`),
      html.indexOf('</svg>', html.indexOf(id)),
    );
    assert.equal(chart.match(/class="chart-bar"/g)?.length, 2);
    assert.equal(chart.match(/class="chart-interval"/g)?.length, 2);
    // Its data table is the split's own, right after it: the figure repeats none.
    assert.ok(html.includes('</svg></figure><table><caption>Task 1, by assistive technology</caption>'));
  });

  it('draws no chart of a withheld split: one country has fewer testers than the minimum', () => {
    assert.ok(html.includes('<caption>Task 1, by country</caption>'));
    assert.ok(!html.includes('task-1-byCountry-title'), 'a withheld split was charted');
    assert.ok(html.includes('task-1-byDevice-title'), 'ten testers on one device are charted');
  });
});
