import type { AuditIssue, CheckOutcome, IssueCounts, Severity } from '../../lib/audits.ts';
import type { AuditGrade } from '../../lib/domain.ts';
import { isLevelAaaOnly, SEVERITIES } from '../../lib/audits.ts';

/**
 * The weight of a failed check by its severity: Lighthouse's impact weights (axe impacts mapped to
 * 10 / 7 / 3 / 1). The project's own keyboard checks carry severities too, so they count alike.
 */
export const SEVERITY_WEIGHT: Readonly<Record<Severity, number>> = {
  critical: 10,
  serious: 7,
  moderate: 3,
  minor: 1,
};

/** Penalty points that take a page from 100 to 100/e (about 37). See docs/audits.md. */
const SCALE = 40;

/**
 * A failed check weighs more when it fails on more elements, but at most twice its weight: one
 * unlabeled field and twenty are both a broken form, and the count should not swamp other checks.
 */
export function checkPenalty(severity: Severity, failingElements: number): number {
  if (failingElements <= 0) return 0;
  return SEVERITY_WEIGHT[severity] * Math.min(2, 1 + Math.log2(failingElements) / 4);
}

/** 100 for a page with no failed check, decaying exponentially with the summed penalties. */
export function scoreOf(outcomes: readonly CheckOutcome[]): number {
  const penalty = outcomes.reduce(
    (sum, outcome) => sum + checkPenalty(outcome.severity, outcome.issues.length),
    0,
  );
  return Math.round(100 * Math.exp(-penalty / SCALE));
}

/** The spec's grade bands. */
export function gradeOf(score: number): AuditGrade {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

export function countIssues(issues: readonly AuditIssue[]): IssueCounts {
  const counts: IssueCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const issue of issues) counts[issue.severity] += 1;
  return counts;
}

export function bySeverity(a: AuditIssue, b: AuditIssue): number {
  return SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity);
}

/** Issues grouped into the failed checks the score counts: one per rule, at its worst severity. */
export function outcomesOf(issues: readonly AuditIssue[]): CheckOutcome[] {
  const byRule = new Map<string, AuditIssue[]>();
  for (const issue of issues) byRule.set(issue.ruleId, [...(byRule.get(issue.ruleId) ?? []), issue]);
  return [...byRule.entries()].map(([ruleId, list]) => {
    const severity = SEVERITIES.find((s) => list.some((issue) => issue.severity === s))!;
    return { ruleId, category: list[0]!.category, severity, issues: list };
  });
}

/**
 * A page's score, grade and counts from its issues (most severe first). The score and grade
 * measure WCAG A and AA: level AAA issues are listed beside them.
 */
export function scoredPage(issues: readonly AuditIssue[]) {
  const sorted = [...issues].sort(bySeverity);
  const score = scoreOf(outcomesOf(sorted.filter((issue) => !isLevelAaaOnly(issue.wcagCriteria))));
  return { score, grade: gradeOf(score), issueCounts: countIssues(sorted), issues: sorted };
}
