import assert from 'node:assert/strict';
import { placesWanted } from '../../activities/matching/matching-activities.ts';
import {
  evenShares,
  pickAcrossSegments,
  planSegments,
  type SegmentInput,
} from '../../activities/matching/segment-plan.ts';

const plan = (testerCount: number, segments: SegmentInput[]) =>
  planSegments(testerCount, segments, placesWanted);

describe('matching: segments and their capacity reviews (activities/matching/segment-plan.ts)', () => {
  it('splits the tester count evenly, the first countries taking the remainder', () => {
    assert.deepEqual(evenShares(5, 2), [3, 2]);
    assert.deepEqual(evenShares(1, 3), [1, 0, 0]);
    assert.deepEqual(evenShares(6, 3), [2, 2, 2]);
    assert.deepEqual(evenShares(0, 2), [0, 0]);
  });

  it('a segment with enough testers gets its share plus the margin, less the places it holds; no review', () => {
    assert.deepEqual(
      plan(8, [
        { country: 'DE', eligible: 9, held: 0 },
        { country: 'FR', eligible: 2, held: 3 },
      ]),
      [
        { country: 'DE', target: 4, open: 5, guaranteed: 4 },
        { country: 'FR', target: 4, open: 2, guaranteed: 1 },
      ],
    );
  });

  it('a short segment (eligible and held below its share) asks for a review and still gets every tester it has', () => {
    const [de, fr] = plan(10, [
      { country: 'DE', eligible: 20, held: 0 },
      { country: 'FR', eligible: 1, held: 1 },
    ]);
    assert.deepEqual(de, { country: 'DE', target: 5, open: 7, guaranteed: 5 });
    assert.deepEqual(fr, {
      country: 'FR',
      target: 5,
      review: { requestedCount: 5, availableCount: 2 },
      open: 6,
      guaranteed: 4,
    });
  });

  it('a pending review holds its segment at what it asked for: the other segments wait for the decision', () => {
    const plans = plan(10, [
      { country: 'DE', eligible: 20, held: 0 },
      {
        country: 'FR',
        eligible: 0,
        held: 2,
        review: { status: 'pending', requestedCount: 5, adjustedCount: null },
      },
    ]);
    assert.deepEqual(plans, [
      { country: 'DE', target: 5, open: 7, guaranteed: 5 },
      { country: 'FR', target: 5, open: 5, guaranteed: 3 },
    ]);
  });

  it('approved: the segment is held at its adjusted count and the places it gives up go to the others', () => {
    const plans = plan(10, [
      { country: 'DE', eligible: 20, held: 0 },
      {
        country: 'FR',
        eligible: 0,
        held: 2,
        review: { status: 'approved', requestedCount: 5, adjustedCount: 2 },
      },
      { country: 'IT', eligible: 20, held: 0 },
    ]);
    // 10 - 2 = 8 places over DE and IT.
    assert.deepEqual(plans, [
      { country: 'DE', target: 4, open: 5, guaranteed: 4 },
      { country: 'FR', target: 2, open: 1, guaranteed: 0 },
      { country: 'IT', target: 4, open: 5, guaranteed: 4 },
    ]);
  });

  it('rejected: the segment gets no new proposal; the others take the places it does not hold and may turn short in turn', () => {
    const plans = plan(10, [
      { country: 'DE', eligible: 7, held: 0 },
      {
        country: 'FR',
        eligible: 3,
        held: 1,
        review: { status: 'rejected', requestedCount: 5, adjustedCount: 0 },
      },
    ]);
    // FR keeps the tester it holds: DE is to hold the other nine.
    assert.deepEqual(plans, [
      { country: 'DE', target: 9, review: { requestedCount: 9, availableCount: 7 }, open: 12, guaranteed: 9 },
      { country: 'FR', target: 0, open: 0, guaranteed: 0 },
    ]);
  });

  it('a decided segment is never reviewed again, even when it stays short; one holding more than its target gets nothing', () => {
    const plans = plan(4, [
      {
        country: 'DE',
        eligible: 0,
        held: 1,
        review: { status: 'approved', requestedCount: 2, adjustedCount: 2 },
      },
      { country: 'FR', eligible: 5, held: 4 },
    ]);
    assert.deepEqual(plans, [
      { country: 'DE', target: 2, open: 2, guaranteed: 1 },
      { country: 'FR', target: 2, open: 0, guaranteed: 0 },
    ]);
  });

  it("picks every segment's guaranteed places before any margin, however the scores compare", () => {
    const [de, fr] = plan(4, [
      { country: 'DE', eligible: 5, held: 0 },
      { country: 'FR', eligible: 5, held: 0 },
    ]);
    const strong = [0.9, 0.89, 0.88, 0.87].map((score) => ({ score, country: 'DE' }));
    const weak = [0.2, 0.19, 0.18].map((score) => ({ score, country: 'FR' }));
    const picked = pickAcrossSegments(
      [
        { plan: de!, candidates: strong.slice(0, de!.open) },
        { plan: fr!, candidates: weak.slice(0, fr!.open) },
      ],
      placesWanted(4),
    );
    // Five places: two each first, then the best margin (DE's third).
    assert.deepEqual(
      picked.map((pick) => [pick.country, pick.score]),
      [
        ['DE', 0.9],
        ['DE', 0.89],
        ['FR', 0.2],
        ['FR', 0.19],
        ['DE', 0.88],
      ],
    );
  });
});
