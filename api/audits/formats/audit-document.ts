import { createRequire } from 'node:module';
import { SEVERITIES, type AuditIssue, type Severity } from '../../../lib/audits.ts';
import type { AuditGrade } from '../../../lib/domain.ts';

/** The formats an audit's result is answered in (`format`); json is the envelope's. */
export const AUDIT_FORMATS = ['json', 'sarif', 'junit', 'earl'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];
export type DocumentFormat = Exclude<AuditFormat, 'json'>;

/** Each document format's media type, as the answer's Content-Type and the OpenAPI document give it. */
export const DOCUMENT_TYPES: Readonly<Record<DocumentFormat, string>> = {
  sarif: 'application/sarif+json',
  junit: 'application/xml',
  earl: 'application/ld+json',
};

/** One audited page as the documents show it: its issues with the checks that found them. */
export interface AuditedPage {
  readonly url: string;
  readonly issues: readonly AuditIssue[];
  /** What to do about each failed check, by check id, where the audit kept it (full audits). */
  readonly fixes: Readonly<Record<string, string>>;
}

/** A finished audit, instant (one page) or full, as every document format reads it. */
export interface FinishedAudit {
  readonly kind: 'instant' | 'full';
  /** `auditId` or `auditJobId`. */
  readonly id: string;
  readonly url: string;
  readonly score: number;
  readonly grade: AuditGrade;
  readonly completedAt: Date;
  readonly pages: readonly AuditedPage[];
}

const require = createRequire(import.meta.url);

/** The checker as the documents name it. */
export const TOOL = {
  /** Short, as SARIF viewers show it beside every result. */
  name: 'usability-audit',
  fullName: 'Usability service accessibility audit',
  version: (require('../../../package.json') as { version: string }).version,
  informationUri: 'https://www.w3.org/WAI/standards-guidelines/wcag/',
} as const;

interface AxeRule {
  readonly ruleId: string;
  readonly description: string;
  readonly helpUrl: string;
}
let axeRules: ReadonlyMap<string, AxeRule> | undefined;

/**
 * What a check looks for and where it is explained: axe-core's own words and Deque's page for its
 * rules (its catalogue runs in Node without a page, read once); nothing for the project's own checks.
 */
export function checkInfo(ruleId: string): { description?: string; helpUri?: string } {
  axeRules ??= new Map(
    (require('axe-core') as { getRules(): AxeRule[] }).getRules().map((rule) => [rule.ruleId, rule]),
  );
  const rule = axeRules.get(ruleId);
  return rule ? { description: rule.description, helpUri: rule.helpUrl.replace(/\?.*$/, '') } : {};
}

/** The failed checks of a set of issues, in order of first appearance, each with its issues. */
export function failedChecks(issues: readonly AuditIssue[]): { ruleId: string; issues: AuditIssue[] }[] {
  const byRule = new Map<string, AuditIssue[]>();
  for (const issue of issues) byRule.set(issue.ruleId, [...(byRule.get(issue.ruleId) ?? []), issue]);
  return [...byRule].map(([ruleId, found]) => ({ ruleId, issues: found }));
}

/** The most severe of the issues' severities (SEVERITIES runs from the most severe). */
export function worstSeverity(issues: readonly AuditIssue[]): Severity {
  return SEVERITIES.find((severity) => issues.some((issue) => issue.severity === severity)) ?? 'minor';
}
