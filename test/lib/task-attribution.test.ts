import assert from 'node:assert/strict';
import {
  firstArrival,
  isPage,
  outcomeDispute,
  successPageOf,
  taskAt,
  type AttemptSpan,
} from '../../lib/analysis/task-attribution.ts';
import { taskResults, type EndedAttempt } from '../../lib/analysis/task-results.ts';

describe('task attribution (lib/analysis/task-attribution.ts)', () => {
  const spans: AttemptSpan[] = [
    { order: 2, startedAt: 5_000, endedAt: 9_000 },
    { order: 1, startedAt: 1_000, endedAt: 4_000 },
    { order: 3, startedAt: 9_000, endedAt: null },
  ];

  it('gives a moment to the task in progress then: start included, end excluded, none between tasks', () => {
    assert.deepEqual(
      [0, 1_000, 3_999, 4_000, 4_500, 5_000, 8_999, 9_000, 1e12].map((at) => taskAt(spans, at)),
      [null, 1, 1, null, null, 2, 2, 3, 3],
    );
  });

  it('reads the page success criteria name: a path standing alone, or a URL by its path and fragment', () => {
    const cases: [string | null, string | null][] = [
      ['The tester reaches /booking/confirmed.', '/booking/confirmed'],
      ['Order page shown', null],
      [null, null],
      ['Lands on "/orders/done/" with the order number', '/orders/done'],
      ['https://shop.example/checkout/thanks?ref=1 is shown', '/checkout/thanks'],
      ['See https://app.example/#/receipt, then stop', '/#/receipt'],
      ['(/account/address) shows the new address', '/account/address'],
      ['Pay and/or book: the confirmation appears', null],
      ['Ends at /app#/paid', '/app#/paid'],
      ['Shows /app#/receipt?id=1 at the end', '/app#/receipt'],
    ];
    for (const [criteria, page] of cases) assert.equal(successPageOf(criteria), page, String(criteria));
  });

  it('matches a navigation by path, and by fragment only when the page names one', () => {
    assert.ok(isPage('/booking/confirmed', '/booking/confirmed/'));
    assert.ok(isPage('/booking/confirmed', '/booking/confirmed#top'));
    assert.ok(!isPage('/booking/confirmed', '/booking/confirmed/123'));
    assert.ok(!isPage('/booking/confirmed', '/booking'));
    assert.ok(isPage('/app#/paid', '/app#/paid'));
    assert.ok(!isPage('/app#/paid', '/app#/cart'));
  });

  it('finds the first arrival at the page within the attempt only', () => {
    const navigations = [
      { at: 500, target: '/done' }, // before the task
      { at: 2_000, target: '/cart' },
      { at: 3_000, target: '/done' },
      { at: 3_500, target: '/done' },
    ];
    assert.equal(firstArrival('/done', { order: 1, startedAt: 1_000, endedAt: 4_000 }, navigations), 3_000);
    assert.equal(firstArrival('/done', { order: 1, startedAt: 1_000, endedAt: 2_500 }, navigations), null);
    assert.equal(firstArrival('/done', { order: 1, startedAt: 3_500, endedAt: 3_500 }, navigations), 3_500);
    // Reached at the very moment of Done: the end counts, unlike taskAt's.
    assert.equal(firstArrival('/done', { order: 1, startedAt: 1_000, endedAt: 3_000 }, navigations), 3_000);
  });

  it('flags a tester who said done without reaching the page, or gave up after reaching it', () => {
    assert.equal(outcomeDispute('completed', false), 'done_without_reaching');
    assert.equal(outcomeDispute('abandoned', true), 'gave_up_after_reaching');
    assert.equal(outcomeDispute('completed', true), null);
    assert.equal(outcomeDispute('abandoned', false), null);
    assert.equal(outcomeDispute('unfinished', true), null);
    assert.equal(outcomeDispute('completed', null), null, 'not judged: no page, or the session still runs');
  });

  it("counts each task's attempts against its success page in the results", () => {
    const attempt = (testerId: string, outcome: EndedAttempt['outcome'], successReached: boolean | null) =>
      ({
        order: 1,
        testerId,
        variant: null,
        outcome,
        activeMs: 1_000,
        ease: null,
        device: null,
        country: null,
        assistiveTechnologies: [],
        successReached,
      }) satisfies EndedAttempt;
    const [withPage, without] = taskResults(
      [
        { order: 1, successPage: '/done' },
        { order: 2, successPage: null },
      ],
      [
        attempt('a', 'completed', true),
        attempt('b', 'completed', false),
        attempt('c', 'abandoned', true),
        attempt('d', 'abandoned', false),
        attempt('e', 'completed', null), // its session still runs
      ],
    );
    assert.deepEqual(withPage!.successPage, {
      page: '/done',
      judged: 4,
      reached: 2,
      doneWithoutReaching: 1,
      gaveUpAfterReaching: 1,
    });
    assert.equal(without!.successPage, null);
  });
});
