// A session's task attempts as pure functions: the session workflow judges every report of task
// progress with them and measures time on task. Dependency-free.
import type { SessionStatus, TaskAttemptChange, TaskOutcome, TaskProgressState } from '../lib/domain.ts';

export type { TaskAttemptChange };

/** What the tester reports of one task (PATCH /api/sessions/:id with `task`). */
export interface TaskProgress {
  /** The task's `order` in its study. */
  readonly order: number;
  readonly state: TaskProgressState;
  /** ISO timestamp of the moment the tester acted (the API has checked it against the session). */
  readonly at: string;
  /** The Single Ease Question's answer, when the task ends. */
  readonly ease?: number | undefined;
  /** Why the tester gave up (abandoned only). */
  readonly reason?: string | undefined;
}

/** A stretch the session spent paused; `to` is null while it lasts. */
export interface Pause {
  readonly from: string;
  to: string | null;
}

/** What the workflow knows of the session's tasks; changed only through `applyAttempt`. */
export interface TaskBook {
  /** The attempt in progress, if any: one at a time. */
  current: { readonly order: number; readonly startedAt: string } | null;
  /** How each ended attempt ended, by task order: a task is attempted once. */
  readonly ended: Record<number, TaskOutcome>;
  readonly pauses: Pause[];
}

export const emptyTaskBook = (): TaskBook => ({ current: null, ended: {}, pauses: [] });

/** A report the session's state refuses (409), one whose time is impossible (422), or the change. */
export type TaskJudgement =
  { readonly conflict: string } | { readonly invalid: string } | { readonly change: TaskAttemptChange };

/** Judges one report of task progress against the session's status and its attempts so far. */
export function judgeTaskProgress(
  book: TaskBook,
  status: SessionStatus,
  progress: TaskProgress,
): TaskJudgement {
  if (status !== 'active') {
    return { conflict: `Session must be active to record task progress (it is ${status})` };
  }
  const { order, state, at } = progress;
  const ended = book.ended[order];
  if (state === 'started') {
    if (book.current) {
      return {
        conflict:
          book.current.order === order
            ? `Task ${order} is already in progress`
            : `Task ${book.current.order} is in progress: complete or abandon it before starting task ${order}`,
      };
    }
    if (ended) return { conflict: `Task ${order} was already attempted (${ended})` };
    return { change: { order, startedAt: at } };
  }
  if (book.current?.order !== order) {
    return {
      conflict: ended
        ? `Task ${order} is not in progress (its attempt ended ${ended})`
        : `Task ${order} is not in progress: start it first`,
    };
  }
  if (Date.parse(at) < Date.parse(book.current.startedAt)) {
    return { invalid: `task.at: Must not be before the task started (${book.current.startedAt})` };
  }
  return {
    change: endedAttempt(book, at, state, {
      ...(progress.ease !== undefined ? { ease: progress.ease } : {}),
      ...(state === 'abandoned' && progress.reason !== undefined ? { reason: progress.reason } : {}),
    }),
  };
}

/** The attempt in progress when the session ends at `at`: recorded as unfinished. */
export function unfinishedAttempt(book: TaskBook, at: string): TaskAttemptChange | undefined {
  if (!book.current) return undefined;
  // A completion time the tester gave may precede the task's own start by their clock's drift.
  const end = Date.parse(at) < Date.parse(book.current.startedAt) ? book.current.startedAt : at;
  return endedAttempt(book, end, 'unfinished', {});
}

function endedAttempt(
  book: TaskBook,
  endedAt: string,
  outcome: TaskOutcome,
  answers: { readonly ease?: number; readonly reason?: string },
): TaskAttemptChange {
  const { order, startedAt } = book.current!;
  return {
    order,
    startedAt,
    endedAt,
    outcome,
    activeMs: activeMs(startedAt, endedAt, book.pauses),
    ...answers,
  };
}

/** Milliseconds from `startedAt` to `endedAt` that the session did not spend paused. */
export function activeMs(startedAt: string, endedAt: string, pauses: readonly Pause[]): number {
  const start = Date.parse(startedAt);
  const end = Date.parse(endedAt);
  let paused = 0;
  for (const pause of pauses) {
    const from = Math.max(start, Date.parse(pause.from));
    const to = Math.min(end, pause.to === null ? end : Date.parse(pause.to));
    if (to > from) paused += to - from;
  }
  return Math.max(0, end - start - paused);
}

/** Takes a recorded change into the book. */
export function applyAttempt(book: TaskBook, change: TaskAttemptChange): void {
  if (change.outcome) {
    book.ended[change.order] = change.outcome;
    book.current = null;
  } else {
    book.current = { order: change.order, startedAt: change.startedAt };
  }
}

/** The session paused or resumed at `at`: pauses do not count towards time on task. */
export function notePause(book: TaskBook, paused: boolean, at: string): void {
  const last = book.pauses.at(-1);
  if (paused && (!last || last.to !== null)) book.pauses.push({ from: at, to: null });
  if (!paused && last && last.to === null) last.to = at;
}
