import type { ReportedIssue, Verdict } from '../support/verdicts.ts';
import type { ActCase, ActRule } from './catalogue.ts';

/** EARL's outcomes that a tool judged by criteria can give: it flags a case, or not, or could not run. */
export type Outcome = 'failed' | 'passed' | 'untested';

export interface CaseResult {
  readonly actCase: ActCase;
  readonly outcome: Outcome;
  /** Every criterion of the issues that flagged the case (those under one the rule is judged by). */
  readonly reportedUnder: readonly string[];
  /** Every issue the tool reported on the case's page, whatever its criteria (W3C's procedures). */
  readonly issues: readonly ReportedIssue[];
  readonly error?: string;
}

/** The W3C implementations table's levels (act-tools' `getConsistency`), with "untested" for none. */
export type Consistency = 'consistent' | 'partially consistent' | 'inconsistent' | 'untested';

export interface RuleResult {
  readonly rule: ActRule;
  /**
   * As W3C's implementations table rates it (act-tools' `findProcedureSet`): each of the tool's
   * procedures (its checks) on the rule's cases, the best level any reaches, partial ones combined.
   */
  readonly consistency: Consistency;
  /** The procedures that level rests on (none when untested or inconsistent). */
  readonly procedures: readonly string[];
  /** Stricter: every issue under the rule's criteria counts, whichever check reported it. */
  readonly criteriaConsistency: Consistency;
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
  if ('error' in verdict)
    return { actCase, outcome: 'untested', reportedUnder: [], issues: [], error: verdict.error };
  const flagging = verdict.issues.filter(({ criteria }) => criteria.some((c) => rule.judgedBy.includes(c)));
  return {
    actCase,
    outcome: flagging.length ? 'failed' : 'passed',
    reportedUnder: [...new Set(flagging.flatMap(({ criteria }) => criteria))].sort(),
    issues: verdict.issues,
  };
}

/** Right the W3C way: a failed case flagged, a passed or inapplicable one audited and not flagged. */
export function isCorrect(result: CaseResult): boolean {
  return result.actCase.expected === 'failed' ? result.outcome === 'failed' : result.outcome === 'passed';
}

/** One procedure's (or a set's) outcomes on a rule's cases, and the criteria it reported them under. */
interface ProcedureOutcomes {
  readonly outcomes: readonly { readonly expected: ActCase['expected']; readonly outcome: Outcome }[];
  readonly requirements: ReadonlySet<string>;
}

type Level = 'complete' | 'partial' | null;

/**
 * act-tools' `getConsistency` for one procedure: a failure on a passed or inapplicable case rules
 * it out; every failed case found, every case audited and the rule's requirements reported (its
 * criteria for conformance all, none it does not name: `mapsAllRequirements`) is complete; some
 * failed case found is partial.
 */
function levelOf(rule: ActRule, { outcomes, requirements }: ProcedureOutcomes): Level {
  const isFailed = (expected: ActCase['expected']) => expected === 'failed';
  if (outcomes.some(({ expected, outcome }) => !isFailed(expected) && outcome === 'failed')) return null;
  const truePositive = outcomes.some(({ expected, outcome }) => isFailed(expected) && outcome === 'failed');
  if (!truePositive) return null;
  const named = new Set([...rule.conformance, ...rule.secondary]);
  const requirementsMet =
    rule.conformance.every((criterion) => requirements.has(criterion)) &&
    [...requirements].every((criterion) => named.has(criterion));
  const complete =
    requirementsMet &&
    outcomes.every(
      ({ expected, outcome }) => outcome !== 'untested' && (!isFailed(expected) || outcome === 'failed'),
    );
  return complete ? 'complete' : 'partial';
}

/** A procedure's outcomes on the cases: failed where it reported an issue, untested where nothing ran. */
function procedureOutcomes(cases: readonly CaseResult[], procedures: ReadonlySet<string>): ProcedureOutcomes {
  const requirements = new Set<string>();
  const outcomes = cases.map(({ actCase, outcome, issues }) => {
    const found = issues.filter(({ procedure }) => procedures.has(procedure));
    for (const { criteria } of found) for (const criterion of criteria) requirements.add(criterion);
    return {
      expected: actCase.expected,
      outcome: outcome === 'untested' ? outcome : found.length ? ('failed' as const) : ('passed' as const),
    };
  });
  return { outcomes, requirements };
}

/**
 * The rule as W3C's table rates a tool (act-tools' `findProcedureSet`): every procedure that
 * reported an issue on one of its cases is rated alone; the rule takes the best level; when that is
 * partial, the partial procedures together are rated again (two checks may cover what one does not).
 */
function procedureConsistency(
  rule: ActRule,
  cases: readonly CaseResult[],
): { consistency: Consistency; procedures: string[] } {
  const names = [...new Set(cases.flatMap(({ issues }) => issues.map(({ procedure }) => procedure)))].sort();
  const rated = names.map((name) => ({
    name,
    level: levelOf(rule, procedureOutcomes(cases, new Set([name]))),
  }));
  const complete = rated.filter(({ level }) => level === 'complete').map(({ name }) => name);
  if (complete.length) return { consistency: 'consistent', procedures: complete };
  const partial = rated.filter(({ level }) => level === 'partial').map(({ name }) => name);
  if (partial.length) {
    const together = levelOf(rule, procedureOutcomes(cases, new Set(partial)));
    return {
      consistency: together === 'complete' ? 'consistent' : 'partially consistent',
      procedures: partial,
    };
  }
  const found = cases.some(({ actCase, outcome }) => actCase.expected === 'failed' && outcome === 'failed');
  return { consistency: found ? 'inconsistent' : 'untested', procedures: [] };
}

/**
 * The rule's consistency judged by criteria alone: any passed or inapplicable case flagged makes
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
  const criteriaConsistency: Consistency = falsePositive
    ? 'inconsistent'
    : truePositive && !falseNegative && !untested && requirementsMet
      ? 'consistent'
      : truePositive
        ? 'partially consistent'
        : 'untested';
  return {
    rule,
    ...procedureConsistency(rule, cases),
    criteriaConsistency,
    correct: cases.filter(isCorrect).length,
    cases,
    reportedRequirements: [...reported].sort(),
  };
}

export interface Scores {
  /** Right cases among those of rules with a WCAG criterion for conformance (488 in the approved set). */
  readonly correct: number;
  readonly scoredCases: number;
  /** Consistent as W3C's table rates them (by the tool's procedures). */
  readonly consistentRules: number;
  /** Consistent judged by criteria alone (`criteriaConsistency`). */
  readonly consistentRulesByCriteria: number;
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
    consistentRulesByCriteria: judged.filter((rule) => rule.criteriaConsistency === 'consistent').length,
    rules: judged,
  };
}
