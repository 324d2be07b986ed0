import type { BarrierMoment, TaskSignal } from '../signals.ts';
import { duration } from '../../duration-text.ts';

/** A completed attempt this many times the study's median time on the task is far above it. */
export const SLOW_TASK_FACTOR = 2;
/** Other sessions' completed attempts a study needs before its median says anything. */
export const MIN_MEDIAN_ATTEMPTS = 3;
/** A Single Ease Question answer of this or less: the tester found the task difficult (Sauro). */
export const LOW_EASE_MAX = 3;
/** A give-up's reason is quoted up to this many characters in the finding. */
export const REASON_QUOTED = 200;

/** The tester's reason as the finding quotes it: on one line, cut at `REASON_QUOTED` characters. */
function quoted(reason: string): string {
  const line = reason.replace(/\s+/g, ' ').trim();
  return line.length > REASON_QUOTED ? `${line.slice(0, REASON_QUOTED - 1).trimEnd()}…` : line;
}

/**
 * What the tester's own task attempts say, each at the attempt's end: a give-up; a completed
 * attempt at least twice the study's median time on that task; an ease of 3 or less (below the
 * scale's middle; the SEQ's average is about 5.5). An unfinished attempt says nothing by itself:
 * the session ended first.
 */
export function taskMoments(tasks: readonly TaskSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  for (const task of tasks) {
    if (!task.endedAt || task.activeMs === null) continue;
    const name = `task ${task.order}, "${task.title}"`;
    const at = task.endedAt;
    if (task.outcome === 'abandoned') {
      moments.push({
        kind: 'task_abandoned',
        at,
        target: null,
        severity: 'high',
        evidence: `the tester gave up on ${name}, after ${duration(task.activeMs)}${task.reason?.trim() ? `, saying "${quoted(task.reason)}"` : ''}`,
      });
    }
    if (
      task.outcome === 'completed' &&
      task.studyMedianMs !== null &&
      task.studyMedianMs > 0 &&
      task.activeMs >= SLOW_TASK_FACTOR * task.studyMedianMs
    ) {
      moments.push({
        kind: 'slow_task',
        at,
        target: null,
        severity: 'medium',
        evidence: `${name} took ${duration(task.activeMs)}, ${(task.activeMs / task.studyMedianMs).toFixed(1)} times the study's median of ${duration(task.studyMedianMs)}`,
      });
    }
    if (task.ease !== null && task.ease <= LOW_EASE_MAX) {
      moments.push({
        kind: 'low_ease',
        at,
        target: null,
        severity: task.ease === 1 ? 'high' : 'medium',
        evidence: `the tester rated ${name} ${task.ease} of 7 for ease`,
      });
    }
  }
  return moments.sort((a, b) => a.at.getTime() - b.at.getTime());
}
