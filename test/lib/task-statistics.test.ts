import assert from 'node:assert/strict';
import { completionRate, geometricMeanTime, t95 } from '../../lib/analysis/task-statistics.ts';
import { taskResults, type EndedAttempt } from '../../lib/analysis/task-results.ts';

const close = (actual: number, expected: number, within: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= within, `${what}: ${actual}, expected ${expected} ± ${within}`);

// Checked against published worked examples (Sauro and Lewis's methods, as their authors and
// Tullis and Albert's "Measuring the User Experience" work them).
describe('task statistics (lib/analysis/task-statistics.ts)', () => {
  it('adjusted Wald: 4 of 5 completed is 80 %, 95 % interval 36 % to 98 % (Tullis and Albert, p. 69)', () => {
    const rate = completionRate(4, 5);
    assert.equal(rate.value, 0.8);
    close(rate.low, 0.3596, 0.0005, 'low');
    close(rate.high, 0.9796, 0.0005, 'high');
  });

  it('adjusted Wald stays within 0 and 1, and refuses impossible counts', () => {
    assert.equal(completionRate(10, 10).high, 1);
    assert.equal(completionRate(0, 10).low, 0);
    assert.throws(() => completionRate(3, 2), RangeError);
    assert.throws(() => completionRate(0, 0), RangeError);
  });

  it('task times 55, 65, 75, 62, 45 and 135 s: geometric mean 68 s, 95 % interval 46 to 101 s (Sauro)', () => {
    const time = geometricMeanTime([55, 65, 75, 62, 45, 135]);
    close(time.value, 68, 0.5, 'geometric mean');
    close(time.low, 46, 0.5, 'low');
    close(time.high, 101, 0.5, 'high');
    const one = geometricMeanTime([30]);
    close(one.value, 30, 1e-9, 'one time');
    assert.deepEqual([one.low, one.high], [one.value, one.value]);
    assert.throws(() => geometricMeanTime([]), RangeError);
    assert.throws(() => geometricMeanTime([0, 5]), RangeError);
  });

  it("Student's t at 95 %: tabled to 30 degrees of freedom, then close to the tables", () => {
    assert.equal(t95(5), 2.5706);
    close(t95(40), 2.021, 0.001, 't(40)');
    close(t95(60), 2.0, 0.001, 't(60)');
    close(t95(120), 1.98, 0.001, 't(120)');
    assert.ok(t95(31) < t95(30) && t95(31) > t95(40));
  });
});

describe('task results by group (lib/analysis/task-results.ts)', () => {
  const attempt = (
    testerId: string,
    outcome: EndedAttempt['outcome'],
    extra: Partial<EndedAttempt> = {},
  ) => ({
    order: 1,
    testerId,
    variant: null,
    outcome,
    activeMs: 60_000,
    ease: 5,
    device: null,
    country: 'GB',
    assistiveTechnologies: [],
    successReached: null,
    ...extra,
  });
  /** Tasks whose success criteria name no page. */
  const tasks = (...orders: number[]) => orders.map((order) => ({ order, successPage: null }));

  it('counts every ended attempt in the completion rate, times only the completed, and groups testers', () => {
    const attempts: EndedAttempt[] = [
      ...['a', 'b', 'c', 'd'].map((id) =>
        attempt(id, 'completed', { assistiveTechnologies: ['screen_reader'] }),
      ),
      attempt('e', 'abandoned', {
        ease: 1,
        activeMs: 5_000,
        assistiveTechnologies: ['screen_reader', 'screen_magnifier'],
      }),
      attempt('f', 'unfinished', { ease: null, country: 'DE' }),
    ] as EndedAttempt[];
    const [task] = taskResults(tasks(1, 2), attempts);
    const overall = task!.overall;
    assert.deepEqual(
      [overall.testers, overall.completed, overall.abandoned, overall.unfinished],
      [6, 4, 1, 1],
    );
    assert.equal(overall.completionRate!.value, 4 / 6);
    close(overall.timeOnTaskSeconds!.value, 60, 1e-9, 'only completed attempts are timed');
    assert.equal(overall.meanEase, (5 * 4 + 1) / 5);
    assert.deepEqual(task!.byVariant, [], 'a study without variants has no split by variant');

    // One magnifier user and one without technology beside five screen-reader users: the whole
    // split is withheld, down to its counts (the overall less the groups shown would give them back).
    assert.deepEqual(
      task!.byAssistiveTechnology.map((group) => [group.group, group.testers, group.withheld]),
      [
        ['none', 1, true],
        ['screen_magnifier', 1, true],
        ['screen_reader', 5, true],
      ],
    );
    for (const group of [...task!.byAssistiveTechnology, ...task!.byCountry]) {
      assert.deepEqual(
        [
          group.completed,
          group.abandoned,
          group.unfinished,
          group.completionRate,
          group.timeOnTaskSeconds,
          group.meanEase,
        ],
        [null, null, null, null, null, null],
      );
    }
    assert.deepEqual(
      task!.byCountry.map((group) => [group.group, group.testers, group.withheld]),
      [
        ['DE', 1, true],
        ['GB', 5, true],
      ],
    );
    assert.deepEqual(
      task!.byDevice.map((group) => group.group),
      ['unknown'],
    );
  });

  it('a split whose every group has five testers or more is shown', () => {
    const attempts = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((id, i) =>
      attempt(id, i < 7 ? 'completed' : 'abandoned', { country: i < 5 ? 'GB' : 'IE' }),
    ) as EndedAttempt[];
    const [task] = taskResults(tasks(1), attempts);
    assert.deepEqual(
      task!.byCountry.map((group) => [group.group, group.testers, group.completed, group.withheld]),
      [
        ['GB', 5, 5, false],
        ['IE', 5, 2, false],
      ],
    );
    assert.equal(task!.byCountry[1]!.completionRate!.value, 0.4);
  });

  it('a task nobody has finished yet has no rates', () => {
    const [, second] = taskResults(tasks(1, 2), []);
    assert.deepEqual(second!.overall, {
      testers: 0,
      completed: 0,
      abandoned: 0,
      unfinished: 0,
      completionRate: null,
      timeOnTaskSeconds: null,
      meanEase: null,
      withheld: false,
    });
  });
});
