import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { axeChecks } from './axe-check.ts';
import { keyboardChecks, type RawFinding } from './keyboard-check.ts';
import { OWN_RULES, type OwnRuleId } from './own-rules.ts';
import { PAGE_SCRIPT } from './page-script.ts';
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

/** Loads the page and runs every check of the chosen categories on it. */
export async function auditPage(page: Page, url: string, options: PageAuditOptions): Promise<PageAudit> {
  if (!options.allowPrivate) await guardNavigations(page);
  await page.goto(url, { waitUntil: 'load', timeout: options.navigationTimeoutMs });
  await page.evaluate(PAGE_SCRIPT);
  const wanted = new Set(options.categories);
  const issues: AuditIssue[] = [];
  const fixes: Record<string, string> = {};

  if ([...wanted].some((category) => category !== 'keyboard')) {
    for (const finding of await axeChecks(page)) {
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
  }
  const own: RawFinding[] = [];
  const inPage = {
    contrast: 'controlContrast',
    images: 'imageChecks',
    forms: 'formChecks',
    headings: 'headingChecks',
  } as const;
  for (const [category, check] of Object.entries(inPage) as [AuditCategory, string][]) {
    if (wanted.has(category))
      own.push(...(await page.evaluate<RawFinding[]>(`window.__auditKit.${check}()`)));
  }
  const links = await page.evaluate<string[]>('window.__auditKit.links()');
  // Last: the Tab walk moves focus and may open menus that change the DOM the other checks read.
  if (wanted.has('keyboard')) own.push(...(await keyboardChecks(page)));
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
    links,
    fixes,
  };
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
