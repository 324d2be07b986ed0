import { PATTERN_THRESHOLD } from './findings.ts';
import type { EventSignal, Finding, WcagReference } from './signals.ts';
import { taskName } from './task-name.ts';
import { lastEventsBefore } from './timeline.ts';

/** A barrier that recurs across the session's tasks. */
export interface CrossTaskPattern {
  readonly wcag: WcagReference;
  /** Indexes into the findings the pattern was found in, in time order. */
  readonly findings: readonly number[];
  readonly occurrences: number;
  /** What `places` are: the session's tasks, or (a session without task attempts) its pages. */
  readonly placeKind: 'task' | 'page';
  /**
   * The distinct tasks ("Task 2: Pay": two tasks may share a title) or pages (navigation targets)
   * the findings happened in; findings between tasks are in none.
   */
  readonly places: readonly string[];
  /** Of `occurrences`, those between tasks (in no place; always 0 for pages). */
  readonly betweenTasks: number;
}

export const FIRST_PAGE = 'the first page';

/**
 * A criterion is a cross-task pattern when its findings happen in two or more of the session's
 * tasks, or when it recurs at least three times (the threshold Agent 2 raises severity at). A
 * session without task attempts (recorded before the extension reported tasks) has its pages
 * stand in for tasks: the page a finding happened on is its last navigation.
 */
export function crossTaskPatterns(
  findings: readonly Finding[],
  events: readonly EventSignal[],
  /** Whether the session has task attempts; without them, pages stand in for tasks. */
  byTask: boolean,
): CrossTaskPattern[] {
  // A place is keyed by the task's order (two tasks may share a title) and named "Task 2: Pay"; a
  // finding between tasks counts as an occurrence but is in no task, so it adds no place.
  const places: ({ key: string; name: string } | null)[] = byTask
    ? findings.map(({ task }) => (task ? { key: `task ${task.order}`, name: taskName(task) } : null))
    : lastEventsBefore(
        events,
        findings.map((finding) => finding.at),
        (event) => event.type === 'navigation',
      ).map((navigation) => {
        const page = navigation?.target ?? FIRST_PAGE;
        return { key: page, name: page };
      });
  const byCriterion = new Map<
    string,
    { wcag: WcagReference; findings: number[]; places: Map<string, string> }
  >();
  findings.forEach((finding, index) => {
    const group = byCriterion.get(finding.wcag.criterion) ?? {
      wcag: finding.wcag,
      findings: [],
      places: new Map<string, string>(),
    };
    group.findings.push(index);
    const place = places[index];
    if (place) group.places.set(place.key, place.name);
    byCriterion.set(finding.wcag.criterion, group);
  });
  return [...byCriterion.values()]
    .filter((group) => group.places.size >= 2 || group.findings.length >= PATTERN_THRESHOLD)
    .map((group) => ({
      wcag: group.wcag,
      findings: group.findings,
      occurrences: group.findings.length,
      placeKind: byTask ? ('task' as const) : ('page' as const),
      places: [...group.places.values()],
      betweenTasks: group.findings.filter((index) => places[index] === null).length,
    }))
    .sort((a, b) => b.occurrences - a.occurrences || a.wcag.criterion.localeCompare(b.wcag.criterion));
}
