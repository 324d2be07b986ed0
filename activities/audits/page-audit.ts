import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { axeFindings, RUN_AXE, type AxeViolation } from './axe-check.ts';
import { keyboardChecks, type RawFinding, type SkipLink, type WalkPreparation } from './keyboard-check.ts';
import { OWN_RULES, type OwnRuleId } from './own-rules.ts';
import { AUDIT_INIT_SCRIPT } from './page-script.ts';
import { bySeverity, countIssues, gradeOf, scoreOf } from './score.ts';
import {
  SEVERITIES,
  type AuditCategory,
  type AuditIssue,
  type CheckOutcome,
  type PageAuditResult,
} from './types.ts';
import { assertAuditableUrl } from './url-guard.ts';

export interface PageAuditOptions {
  readonly categories: readonly AuditCategory[];
  readonly allowPrivate: boolean;
  readonly navigationTimeoutMs: number;
}

export interface PageAudit extends PageAuditResult {
  /** How to fix each failed check, by rule id, for the report. */
  readonly fixes: Readonly<Record<string, string>>;
}

/** What one evaluate call brings back from the loaded page (see the kit's collect()). */
interface Inspection {
  readonly axe: AxeViolation[];
  readonly findings: RawFinding[];
  readonly links: string[];
  readonly walk: WalkPreparation | null;
  readonly skip: SkipLink | null;
}

/** Loads the page and runs every check of the chosen categories on it. */
export async function auditPage(page: Page, url: string, options: PageAuditOptions): Promise<PageAudit> {
  if (!options.allowPrivate) await guardNavigations(page);
  await page.goto(url, { waitUntil: 'load', timeout: options.navigationTimeoutMs });
  const wanted = new Set(options.categories);
  const inspection = await inspect(page, options.categories);
  const issues: AuditIssue[] = [];
  const fixes: Record<string, string> = {};

  for (const finding of axeFindings(inspection.axe)) {
    if (!wanted.has(finding.category)) continue;
    issues.push(
      toIssue(
        finding.ruleId,
        finding.category,
        finding.severity,
        finding.element,
        finding.description,
        finding.wcag,
      ),
    );
    fixes[finding.ruleId] = finding.fix;
  }
  const own = [...inspection.findings];
  // Last: the Tab walk moves focus and may open menus that change the DOM the other checks read.
  if (inspection.walk) own.push(...(await keyboardChecks(page, inspection.walk, inspection.skip)));
  for (const finding of own) {
    const rule = OWN_RULES[finding.ruleId as OwnRuleId];
    issues.push(
      toIssue(finding.ruleId, rule.category, rule.severity, finding.element, finding.description, rule.wcag),
    );
    fixes[finding.ruleId] = rule.fix;
  }

  const unique = dedupe(issues).sort(bySeverity);
  const score = scoreOf(outcomesOf(unique));
  return {
    url: page.url(),
    score,
    grade: gradeOf(score),
    issueCounts: countIssues(unique),
    issues: unique,
    links: inspection.links,
    fixes,
  };
}

/**
 * axe (unless only keyboard checks are asked for), then the kit's own checks, in one round trip.
 * The warm contexts load both at document start; a page without them (a context from elsewhere)
 * gets them injected here.
 */
async function inspect(page: Page, categories: readonly AuditCategory[]): Promise<Inspection> {
  const axe = categories.some((category) => category !== 'keyboard') ? RUN_AXE : 'Promise.resolve([])';
  const script = `window.__auditKit && window.__auditKit.axe ? ${axe}.then((axe) => Object.assign({ axe }, window.__auditKit.collect(${JSON.stringify(categories)}))) : null`;
  const inspection = await page.evaluate<Inspection | null>(script);
  if (inspection) return inspection;
  await page.evaluate(AUDIT_INIT_SCRIPT);
  return (await page.evaluate<Inspection | null>(script))!;
}

function toIssue(
  ruleId: string,
  category: AuditCategory,
  severity: AuditIssue['severity'],
  element: string,
  description: string,
  wcag: readonly string[],
): AuditIssue {
  const issueId = `${ruleId}-${createHash('sha256').update(element).digest('hex').slice(0, 10)}`;
  return { issueId, ruleId, category, severity, element, description, wcagCriteria: [...wcag] };
}

function dedupe(issues: readonly AuditIssue[]): AuditIssue[] {
  const byId = new Map<string, AuditIssue>();
  for (const issue of issues) if (!byId.has(issue.issueId)) byId.set(issue.issueId, issue);
  return [...byId.values()];
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

/** Redirects and in-page navigations are checked too, so a public URL cannot bounce to an internal one. */
async function guardNavigations(page: Page): Promise<void> {
  await page.route('**/*', async (route) => {
    const request = route.request();
    if (!request.isNavigationRequest()) return route.continue();
    try {
      await assertAuditableUrl(request.url(), { allowPrivate: false });
      return await route.continue();
    } catch {
      return route.abort('blockedbyclient');
    }
  });
}

/** Screenshots of the viewport with the offending element outlined, for critical and serious issues. */
export async function annotatedScreenshots(
  page: Page,
  issues: readonly AuditIssue[],
  limit: number,
): Promise<Map<string, Buffer>> {
  const shots = new Map<string, Buffer>();
  for (const issue of issues
    .filter((i) => i.severity === 'critical' || i.severity === 'serious')
    .slice(0, limit)) {
    const selector = JSON.stringify(issue.element);
    if (!(await page.evaluate<boolean>(`window.__auditKit.outline(${selector}, true)`))) continue;
    shots.set(issue.issueId, await page.screenshot({ type: 'png' }));
    await page.evaluate(`window.__auditKit.outline(${selector}, false)`);
  }
  return shots;
}
