import { PATTERN_THRESHOLD } from './findings.ts';
import type { EventSignal, Finding, WcagReference } from './signals.ts';
import { lastEventsBefore } from './timeline.ts';

/** A barrier that recurs across the session's tasks. */
export interface CrossTaskPattern {
  readonly wcag: WcagReference;
  /** Indexes into the findings the pattern was found in, in time order. */
  readonly findings: readonly number[];
  readonly occurrences: number;
  /** The distinct pages (navigation targets) the findings happened on. */
  readonly pages: readonly string[];
}

export const FIRST_PAGE = 'the first page';

/**
 * Events carry no task, so the page a finding happened on (its last navigation) stands in for the
 * task. A criterion is a cross-task pattern when its findings happen on two or more pages, or when
 * it recurs at least three times (the threshold Agent 2 raises severity at).
 */
export function crossTaskPatterns(
  findings: readonly Finding[],
  events: readonly EventSignal[],
): CrossTaskPattern[] {
  const pages = lastEventsBefore(
    events,
    findings.map((finding) => finding.at),
    (event) => event.type === 'navigation',
  ).map((navigation) => navigation?.target ?? FIRST_PAGE);
  const byCriterion = new Map<string, { wcag: WcagReference; findings: number[]; pages: Set<string> }>();
  findings.forEach((finding, index) => {
    const group = byCriterion.get(finding.wcag.criterion) ?? {
      wcag: finding.wcag,
      findings: [],
      pages: new Set<string>(),
    };
    group.findings.push(index);
    group.pages.add(pages[index]!);
    byCriterion.set(finding.wcag.criterion, group);
  });
  return [...byCriterion.values()]
    .filter((group) => group.pages.size >= 2 || group.findings.length >= PATTERN_THRESHOLD)
    .map((group) => ({
      wcag: group.wcag,
      findings: group.findings,
      occurrences: group.findings.length,
      pages: [...group.pages],
    }))
    .sort((a, b) => b.occurrences - a.occurrences || a.wcag.criterion.localeCompare(b.wcag.criterion));
}
