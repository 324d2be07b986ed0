import type { WcagLevel } from '../domain.ts';
import { currentCriterion, WCAG_CATALOG } from './wcag-catalog.ts';

/** A barrier a tester met: a confirmed finding of one session, under one WCAG criterion. */
export interface TesterBarrier {
  readonly criterion: string;
  readonly sessionId: string;
}

/** An issue the audit found on one page, under each criterion it fails (none: best practice). */
export interface AuditedIssue {
  readonly criteria: readonly string[];
  readonly pageUrl: string;
}

/** Who met a criterion's barriers: testers and the audit, testers only, or the audit only. */
export const FOUND_BY = ['both', 'testers', 'audit'] as const;
export type FoundBy = (typeof FOUND_BY)[number];

export interface CriterionComparison {
  readonly criterion: string;
  readonly name: string;
  readonly level: WcagLevel;
  readonly foundBy: FoundBy;
  /** Confirmed findings under the criterion, and how many sessions they came from. */
  readonly testerFindings: number;
  readonly testerSessions: number;
  /** The audit's issues under the criterion, and on how many pages. */
  readonly auditIssues: number;
  readonly auditPages: number;
}

interface Tally {
  findings: number;
  readonly sessions: Set<string>;
  issues: number;
  readonly pages: Set<string>;
}

// Both sides write a criterion as its code ("1.4.3"); a name after it (as an agent might add) is dropped.
const codeOf = (criterion: string): string | undefined => /^\d+\.\d+\.\d+/.exec(criterion.trim())?.[0];
const CATALOG_ORDER = new Map([...WCAG_CATALOG.keys()].map((code, index) => [code, index]));

/**
 * Per WCAG criterion, what the study's testers met beside what the audit of its prototype found:
 * criteria both found first, then those only people found, then those only the audit found, each
 * in WCAG's order. A criterion WCAG 2.2 does not name (or no longer: 4.1.1) is left out, as are the audit's best-practice issues (no criterion).
 */
export function compareWithAudit(
  barriers: readonly TesterBarrier[],
  issues: readonly AuditedIssue[],
): CriterionComparison[] {
  const tallies = new Map<string, Tally>();
  const tallyOf = (criterion: string): Tally | undefined => {
    const code = codeOf(criterion);
    if (!code || !currentCriterion(code)) return undefined;
    let tally = tallies.get(code);
    if (!tally) {
      tally = { findings: 0, sessions: new Set(), issues: 0, pages: new Set() };
      tallies.set(code, tally);
    }
    return tally;
  };
  for (const barrier of barriers) {
    const tally = tallyOf(barrier.criterion);
    if (!tally) continue;
    tally.findings += 1;
    tally.sessions.add(barrier.sessionId);
  }
  for (const issue of issues) {
    // An issue failing 1.3.1 twice over (two of its checks) is still one issue under it.
    for (const code of new Set(issue.criteria.map(codeOf))) {
      const tally = code && tallyOf(code);
      if (!tally) continue;
      tally.issues += 1;
      tally.pages.add(issue.pageUrl);
    }
  }
  const rows = [...tallies].map(([code, tally]): CriterionComparison => {
    const criterion = currentCriterion(code)!;
    return {
      criterion: code,
      name: criterion.name,
      level: criterion.level,
      foundBy: tally.findings && tally.issues ? 'both' : tally.findings ? 'testers' : 'audit',
      testerFindings: tally.findings,
      testerSessions: tally.sessions.size,
      auditIssues: tally.issues,
      auditPages: tally.pages.size,
    };
  });
  return rows.sort(
    (a, b) =>
      FOUND_BY.indexOf(a.foundBy) - FOUND_BY.indexOf(b.foundBy) ||
      CATALOG_ORDER.get(a.criterion)! - CATALOG_ORDER.get(b.criterion)!,
  );
}
