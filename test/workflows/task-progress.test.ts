import assert from 'node:assert/strict';
import {
  activeMs,
  applyAttempt,
  emptyTaskBook,
  judgeTaskProgress,
  notePause,
  unfinishedAttempt,
  type TaskProgress,
} from '../../workflows/task-progress.ts';

const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 9, 0, second)).toISOString();
const progress = (order: number, state: TaskProgress['state'], second: number, extra = {}): TaskProgress => ({
  order,
  state,
  at: at(second),
  ...extra,
});

// The session workflow's rules for task attempts (workflows/task-progress.ts), as pure functions.
describe('task attempts: the rules the session workflow judges them by', () => {
  it('time on task leaves out pauses inside the attempt, cut at its ends, and one still running', () => {
    const pauses = [
      { from: at(0), to: at(5) }, // begun before the start: its last 2 s overlap
      { from: at(20), to: at(30) }, // inside: 10 s
      { from: at(55), to: null }, // still paused at the end: 5 s
    ];
    assert.equal(activeMs(at(3), at(60), pauses), (57 - 2 - 10 - 5) * 1000);
    assert.equal(activeMs(at(3), at(60), []), 57_000);
    assert.equal(activeMs(at(21), at(29), pauses), 0);
  });

  it('one task at a time, each once, ended only after it began, only while the session is active', () => {
    const book = emptyTaskBook();
    assert.deepEqual(judgeTaskProgress(book, 'paused', progress(1, 'started', 1)), {
      conflict: 'Session must be active to record task progress (it is paused)',
    });
    assert.deepEqual(judgeTaskProgress(book, 'active', progress(1, 'completed', 1)), {
      conflict: 'Task 1 is not in progress: start it first',
    });
    const start = judgeTaskProgress(book, 'active', progress(1, 'started', 10));
    assert.deepEqual(start, { change: { order: 1, startedAt: at(10) } });
    applyAttempt(book, (start as { change: never }).change);
    assert.match(
      (judgeTaskProgress(book, 'active', progress(2, 'started', 11)) as { conflict: string }).conflict,
      /^Task 1 is in progress/,
    );
    assert.deepEqual(judgeTaskProgress(book, 'active', progress(1, 'abandoned', 9)), {
      invalid: `task.at: Must not be before the task started (${at(10)})`,
    });
    notePause(book, true, at(12));
    notePause(book, false, at(14));
    const end = judgeTaskProgress(book, 'active', progress(1, 'abandoned', 20, { ease: 2, reason: 'Lost' }));
    assert.deepEqual(end, {
      change: {
        order: 1,
        startedAt: at(10),
        endedAt: at(20),
        outcome: 'abandoned',
        activeMs: 8_000,
        ease: 2,
        reason: 'Lost',
      },
    });
    applyAttempt(book, (end as { change: never }).change);
    assert.deepEqual(judgeTaskProgress(book, 'active', progress(1, 'started', 21)), {
      conflict: 'Task 1 was already attempted (abandoned)',
    });
  });

  it('the attempt open at completion ends unfinished there, never before it began', () => {
    const book = emptyTaskBook();
    assert.equal(unfinishedAttempt(book, at(30)), undefined);
    applyAttempt(book, { order: 2, startedAt: at(10) });
    assert.deepEqual(unfinishedAttempt(book, at(30)), {
      order: 2,
      startedAt: at(10),
      endedAt: at(30),
      outcome: 'unfinished',
      activeMs: 20_000,
    });
    assert.equal(unfinishedAttempt(book, at(5))?.endedAt, at(10));
  });

  it('a pause is noted once and closed once', () => {
    const book = emptyTaskBook();
    notePause(book, true, at(1));
    notePause(book, true, at(2));
    notePause(book, false, at(3));
    notePause(book, false, at(4));
    assert.deepEqual(book.pauses, [{ from: at(1), to: at(3) }]);
  });
});
