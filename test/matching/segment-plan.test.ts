import assert from 'node:assert/strict';
import { placesWanted } from '../../activities/matching/matching-activities.ts';
import { evenShares, planSegments, type SegmentInput } from '../../activities/matching/segment-plan.ts';

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
        { country: 'DE', target: 4, open: 5 },
        { country: 'FR', target: 4, open: 2 },
      ],
    );
  });

  it('a short segment (eligible and held below its share) asks for a review and still gets every tester it has', () => {
    const [de, fr] = plan(10, [
      { country: 'DE', eligible: 20, held: 0 },
      { country: 'FR', eligible: 1, held: 1 },
    ]);
    assert.deepEqual(de, { country: 'DE', target: 5, open: 7 });
    assert.deepEqual(fr, {
      country: 'FR',
      target: 5,
      review: { requestedCount: 5, availableCount: 2 },
      open: 6,
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
      { country: 'DE', target: 5, open: 7 },
      { country: 'FR', target: 5, open: 5 },
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
      { country: 'DE', target: 4, open: 5 },
      { country: 'FR', target: 2, open: 1 },
      { country: 'IT', target: 4, open: 5 },
    ]);
  });

  it('rejected: the segment gets no new proposal; the others take its places and may turn short in turn', () => {
    const plans = plan(10, [
      { country: 'DE', eligible: 7, held: 0 },
      {
        country: 'FR',
        eligible: 3,
        held: 1,
        review: { status: 'rejected', requestedCount: 5, adjustedCount: 0 },
      },
    ]);
    assert.deepEqual(plans, [
      { country: 'DE', target: 10, review: { requestedCount: 10, availableCount: 7 }, open: 13 },
      { country: 'FR', target: 0, open: 0 },
    ]);
  });

  it('a decided segment is never reviewed again, and one holding more than its target gets nothing', () => {
    const plans = plan(2, [
      {
        country: 'DE',
        eligible: 0,
        held: 0,
        review: { status: 'approved', requestedCount: 1, adjustedCount: 0 },
      },
      { country: 'FR', eligible: 5, held: 4 },
    ]);
    assert.deepEqual(plans, [
      { country: 'DE', target: 0, open: 0 },
      { country: 'FR', target: 2, open: 0 },
    ]);
  });
});
