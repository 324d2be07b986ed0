import { PATTERN_THRESHOLD } from './findings.ts';
import type { EventSignal, Finding, WcagReference } from './signals.ts';
import { lastEventsBefore } from './timeline.ts';

/** A barrier that recurs across the session's tasks. */
export interface CrossTaskPattern {
  readonly wcag: WcagReference;
  /** Indexes into the findings the pattern was found in, in time order. */
  readonly findings: readonly number[];
  readonly occurrences: number;
  /** What `places` are: the session's tasks, or (a session without task attempts) its pages. */
  readonly placeKind: 'task' | 'page';
  /** The distinct tasks (their titles) or pages (navigation targets) the findings happened in. */
  readonly places: readonly string[];
}

export const FIRST_PAGE = 'the first page';
export const BETWEEN_TASKS = 'between tasks';

/**
 * A criterion is a cross-task pattern when its findings happen in two or more of the session's
 * tasks, or when it recurs at least three times (the threshold Agent 2 raises severity at). A
 * session without task attempts (recorded before the extension reported tasks) has its pages
 * stand in for tasks: the page a finding happened on is its last navigation.
 */
export function crossTaskPatterns(
  findings: readonly Finding[],
  events: readonly EventSignal[],
): CrossTaskPattern[] {
  const byTask = findings.some((finding) => finding.task !== null);
  const places = byTask
    ? findings.map((finding) => finding.task?.title ?? BETWEEN_TASKS)
    : lastEventsBefore(
        events,
        findings.map((finding) => finding.at),
        (event) => event.type === 'navigation',
      ).map((navigation) => navigation?.target ?? FIRST_PAGE);
  const byCriterion = new Map<string, { wcag: WcagReference; findings: number[]; places: Set<string> }>();
  findings.forEach((finding, index) => {
    const group = byCriterion.get(finding.wcag.criterion) ?? {
      wcag: finding.wcag,
      findings: [],
      places: new Set<string>(),
    };
    group.findings.push(index);
    group.places.add(places[index]!);
    byCriterion.set(finding.wcag.criterion, group);
  });
  return [...byCriterion.values()]
    .filter((group) => group.places.size >= 2 || group.findings.length >= PATTERN_THRESHOLD)
    .map((group) => ({
      wcag: group.wcag,
      findings: group.findings,
      occurrences: group.findings.length,
      placeKind: byTask ? ('task' as const) : ('page' as const),
      places: [...group.places],
    }))
    .sort((a, b) => b.occurrences - a.occurrences || a.wcag.criterion.localeCompare(b.wcag.criterion));
}
