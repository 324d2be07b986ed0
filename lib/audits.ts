import { WCAG_CATALOG } from './analysis/wcag-catalog.ts';
import type { AuditGrade } from './domain.ts';

/**
 * The WCAG version whose success criteria the audits check and report (docs/audits.md): levels A
 * and AA in the score, AAA listed beside it.
 */
export const WCAG_VERSION = '2.2';

/** The spec's check categories. */
export const AUDIT_CATEGORIES = ['contrast', 'keyboard', 'aria', 'images', 'forms', 'headings'] as const;
export type AuditCategory = (typeof AUDIT_CATEGORIES)[number];

/** axe's impact scale, which the spec uses for audit issues, most severe first. */
export const SEVERITIES = ['critical', 'serious', 'moderate', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface AuditIssue {
  readonly issueId: string;
  /** The check that found it (an axe rule id or one of the project's own checks). */
  readonly ruleId: string;
  readonly category: AuditCategory;
  readonly severity: Severity;
  /**
   * CSS selector of the offending element; inside a shadow root, the host's selector and the
   * selector within the root joined by SHADOW_SEPARATOR (`x-card >>> button`); inside a frame,
   * the frame element's selector and the selector within its document joined by FRAME_SEPARATOR
   * (`iframe#map |> a`).
   */
  readonly element: string;
  readonly description: string;
  /** WCAG success criteria, e.g. ["1.4.3"]; empty for best-practice checks. */
  readonly wcagCriteria: readonly string[];
}

/**
 * Whether every criterion an issue fails is of level AAA (1.4.6 enhanced contrast, 2.2.4
 * interruptions, ...): reported at that level, as a minor issue the score leaves out, since the
 * score and grade measure WCAG A and AA (docs/audits.md, "Level AAA").
 */
export function isLevelAaaOnly(wcagCriteria: readonly string[]): boolean {
  return wcagCriteria.length > 0 && wcagCriteria.every((code) => WCAG_CATALOG.get(code)?.level === 'AAA');
}

/**
 * An issue's severity and description at its level: one whose criteria are all of level AAA is
 * minor and says so, whatever the check's own severity (axe's rules and the project's checks alike).
 */
export function atItsLevel(
  severity: Severity,
  description: string,
  wcagCriteria: readonly string[],
): { severity: Severity; description: string } {
  return isLevelAaaOnly(wcagCriteria)
    ? { severity: 'minor', description: `Level AAA: ${description}` }
    : { severity, description };
}

/** What one check concluded on one page: failed checks carry their issues. */
export interface CheckOutcome {
  readonly ruleId: string;
  readonly category: AuditCategory;
  readonly severity: Severity;
  readonly issues: readonly AuditIssue[];
}

export type IssueCounts = Record<Severity, number>;

/** Issue counts as people read them, most severe first: "0 critical, 2 serious, 1 moderate, 0 minor". */
export const issueCountsText = (counts: Readonly<IssueCounts>): string =>
  SEVERITIES.map((severity) => `${counts[severity]} ${severity}`).join(', ');

export interface Viewport {
  readonly width: number;
  readonly height: number;
}

export interface PageAuditResult {
  readonly url: string;
  readonly score: number;
  readonly grade: AuditGrade;
  readonly issueCounts: IssueCounts;
  /** Every issue, most severe first. */
  readonly issues: readonly AuditIssue[];
  /** Same-origin links found on the page (for crawling). */
  readonly links: readonly string[];
}

/** Between a shadow host's selector and a selector inside its shadow root. */
export const SHADOW_SEPARATOR = ' >>> ';
/** Between a frame element's selector and a selector inside the frame's document. */
export const FRAME_SEPARATOR = ' |> ';

/**
 * What the API answers (422 naming url) when an instant audit runs out of time: loading, checking,
 * or waiting for a browser slot within the 10 seconds the request has (see docs/decisions/audits.md, "Instant audit deadline").
 */
export const INSTANT_TIMEOUT_MESSAGE =
  'url: The audit did not finish within the instant audit limit of 10 seconds (the page may be too slow or not responding)';

/** An issue as the API shows it: the check's own id stays inside (remediation names checks). */
export const publicIssue = ({ ruleId: _ruleId, wcagCriteria, ...issue }: AuditIssue) => ({
  ...issue,
  wcagCriteria: [...wcagCriteria],
});
