import type { Verdict } from '../support/verdicts.ts';
import type { ActCase, ActRule } from './catalogue.ts';

/** EARL's outcomes that a tool judged by criteria can give: it flags a case, or not, or could not run. */
export type Outcome = 'failed' | 'passed' | 'untested';

export interface CaseResult {
  readonly actCase: ActCase;
  readonly outcome: Outcome;
  /** Every criterion of the issues that flagged the case (those under one the rule is judged by). */
  readonly reportedUnder: readonly string[];
  readonly error?: string;
}

/** The W3C implementations table's levels (act-tools' `getConsistency`), with "untested" for none. */
export type Consistency = 'consistent' | 'partially consistent' | 'inconsistent' | 'untested';

export interface RuleResult {
  readonly rule: ActRule;
  readonly consistency: Consistency;
  readonly correct: number;
  readonly cases: readonly CaseResult[];
  /** Every criterion reported on the rule's failed outcomes: consistent only when it is the rule's own. */
  readonly reportedRequirements: readonly string[];
}

/**
 * A case is failed when an issue is reported under one of the criteria its rule is judged by
 * (a failed case must be reported under one of them; a passed or inapplicable case must not be).
 */
export function judgeCase(rule: ActRule, actCase: ActCase, verdict: Verdict): CaseResult {
  if ('error' in verdict) return { actCase, outcome: 'untested', reportedUnder: [], error: verdict.error };
  const flagging = verdict.issues.filter((criteria) => criteria.some((c) => rule.judgedBy.includes(c)));
  return {
    actCase,
    outcome: flagging.length ? 'failed' : 'passed',
    reportedUnder: [...new Set(flagging.flat())].sort(),
  };
}

/** Right the W3C way: a failed case flagged, a passed or inapplicable one audited and not flagged. */
export function isCorrect(result: CaseResult): boolean {
  return result.actCase.expected === 'failed' ? result.outcome === 'failed' : result.outcome === 'passed';
}

/**
 * The rule's consistency as W3C's table computes it: any passed or inapplicable case flagged makes
 * it inconsistent; every failed case flagged, every case audited and the rule's criteria among those
 * reported and none it does not name makes it consistent; some failed case flagged, partially consistent; none, untested.
 */
export function judgeRule(rule: ActRule, cases: readonly CaseResult[]): RuleResult {
  const isFailed = (result: CaseResult) => result.actCase.expected === 'failed';
  const falsePositive = cases.some((result) => !isFailed(result) && result.outcome === 'failed');
  const truePositive = cases.some((result) => isFailed(result) && result.outcome === 'failed');
  const falseNegative = cases.some((result) => isFailed(result) && result.outcome !== 'failed');
  const untested = cases.some((result) => result.outcome === 'untested');
  const reported = new Set(
    cases.filter((result) => result.outcome === 'failed').flatMap((r) => r.reportedUnder),
  );
  // act-tools' mapsAllRequirements: every required criterion reported, and none the rule does not name.
  const named = new Set([...rule.conformance, ...rule.secondary]);
  const requirementsMet =
    rule.conformance.every((criterion) => reported.has(criterion)) &&
    [...reported].every((criterion) => named.has(criterion));
  const consistency: Consistency = falsePositive
    ? 'inconsistent'
    : truePositive && !falseNegative && !untested && requirementsMet
      ? 'consistent'
      : truePositive
        ? 'partially consistent'
        : 'untested';
  return {
    rule,
    consistency,
    correct: cases.filter(isCorrect).length,
    cases,
    reportedRequirements: [...reported].sort(),
  };
}

export interface Scores {
  /** Right cases among those of rules with a WCAG criterion for conformance (488 in the approved set). */
  readonly correct: number;
  readonly scoredCases: number;
  readonly consistentRules: number;
  readonly rules: readonly RuleResult[];
}

/** Each rule judged on its cases' verdicts (`verdictOf` by case id). */
export function score(rules: readonly ActRule[], verdictOf: (actCase: ActCase) => Verdict): Scores {
  const judged = rules.map((rule) =>
    judgeRule(
      rule,
      rule.cases.map((actCase) => judgeCase(rule, actCase, verdictOf(actCase))),
    ),
  );
  const scored = judged.filter(({ rule }) => rule.conformance.length > 0);
  return {
    correct: scored.reduce((sum, rule) => sum + rule.correct, 0),
    scoredCases: scored.reduce((sum, rule) => sum + rule.cases.length, 0),
    consistentRules: judged.filter((rule) => rule.consistency === 'consistent').length,
    rules: judged,
  };
}
