import { bySeverity, checkPenalty, gradeOf, outcomesOf } from './score.ts';
import {
  AUDIT_CATEGORIES,
  isLevelAaaOnly,
  issueCountsText,
  SEVERITIES,
  type AuditIssue,
  type IssueCounts,
} from '../../lib/audits.ts';
import type { AuditGrade } from '../../lib/domain.ts';

export interface ReportPage {
  readonly position: number;
  readonly url: string;
  readonly score: number;
  readonly grade: AuditGrade;
  readonly issueCounts: IssueCounts;
  readonly issues: readonly AuditIssue[];
  readonly fixes: Readonly<Record<string, string>>;
}

export interface Remediation {
  readonly ruleId: string;
  readonly severity: AuditIssue['severity'];
  readonly wcagCriteria: readonly string[];
  readonly occurrences: number;
  readonly fix: string;
}

export interface AuditSummary {
  readonly score: number;
  readonly grade: AuditGrade;
  readonly issueCounts: IssueCounts;
  readonly pages: { url: string; score: number; grade: AuditGrade; issueCounts: IssueCounts }[];
  readonly remediation: Remediation[];
}

/** The overall score is the mean of the page scores: every audited page counts the same. */
export function summarize(pages: readonly ReportPage[]): AuditSummary {
  const score = pages.length
    ? Math.round(pages.reduce((sum, page) => sum + page.score, 0) / pages.length)
    : 0;
  const issueCounts: IssueCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const page of pages) for (const s of SEVERITIES) issueCounts[s] += page.issueCounts[s];
  return {
    score,
    grade: gradeOf(score),
    issueCounts,
    pages: pages.map(({ url, score: s, grade, issueCounts: c }) => ({
      url,
      score: s,
      grade,
      issueCounts: c,
    })),
    remediation: remediationOf(pages),
  };
}

/** Failed checks across all pages, the ones costing the most score first. */
export function remediationOf(pages: readonly ReportPage[]): Remediation[] {
  const all = pages.flatMap((page) => page.issues);
  const fixes = Object.assign({}, ...pages.map((page) => page.fixes)) as Record<string, string>;
  return outcomesOf(all)
    .map((outcome) => ({
      ruleId: outcome.ruleId,
      severity: outcome.severity,
      wcagCriteria: [...new Set(outcome.issues.flatMap((issue) => issue.wcagCriteria))],
      occurrences: outcome.issues.length,
      fix: fixes[outcome.ruleId] ?? outcome.issues[0]!.description,
      // Level AAA issues cost no score (isLevelAaaOnly): they come after every check that does.
      weight: outcome.issues.every((issue) => isLevelAaaOnly(issue.wcagCriteria))
        ? 0
        : checkPenalty(outcome.severity, outcome.issues.length),
    }))
    .sort((a, b) => b.weight - a.weight)
    .map(({ weight: _weight, ...rest }) => rest);
}

export interface ReportInput {
  readonly title: string;
  readonly url: string;
  readonly crawl: boolean;
  readonly pages: readonly ReportPage[];
  readonly summary: AuditSummary;
  /** The image source for an issue's screenshot (a cid: for mail, a data: URI for the PDF), if any. */
  readonly screenshotSrc: (position: number, issueId: string) => string | undefined;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The emailed report: score and grade, pages, issues by category and severity, remediation. */
export function renderReportHtml(input: ReportInput): string {
  const { summary } = input;
  const pageRows = summary.pages
    .map(
      (p) =>
        `<tr><td>${escape(p.url)}</td><td>${p.score}</td><td>${p.grade}</td><td>${issueCountsText(p.issueCounts)}</td></tr>`,
    )
    .join('');
  const sections = AUDIT_CATEGORIES.map((category) => {
    const issues = input.pages.flatMap((page) =>
      page.issues.filter((issue) => issue.category === category).map((issue) => ({ issue, page })),
    );
    if (!issues.length) return `<h3>${category}</h3><p>No issues found.</p>`;
    const bySev = SEVERITIES.map((severity) => {
      const list = issues
        .filter(({ issue }) => issue.severity === severity)
        .sort((a, b) => bySeverity(a.issue, b.issue));
      if (!list.length) return '';
      const items = list
        .map(({ issue, page }) => {
          const src = input.screenshotSrc(page.position, issue.issueId);
          const wcag = issue.wcagCriteria.length ? `WCAG ${issue.wcagCriteria.join(', ')}` : 'Best practice';
          return `<li><strong>${escape(issue.description)}</strong><br><code>${escape(issue.element)}</code> on ${escape(page.url)} (${wcag})${
            src
              ? `<br><img alt="Screenshot with the element outlined in red" src="${src}" style="max-width:640px;border:1px solid #999">`
              : ''
          }</li>`;
        })
        .join('');
      return `<h4>${severity} (${list.length})</h4><ul>${items}</ul>`;
    }).join('');
    return `<h3>${category}</h3>${bySev}`;
  }).join('');
  const remediation = summary.remediation
    .map(
      (r) =>
        `<li><strong>${escape(r.ruleId)}</strong> (${r.severity}, ${r.occurrences}x${r.wcagCriteria.length ? `, WCAG ${r.wcagCriteria.join(', ')}` : ''}): ${escape(r.fix)}</li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(input.title)}</title>
<style>body{font-family:sans-serif;color:#1a1a1a;max-width:960px;margin:auto}table{border-collapse:collapse}td,th{border:1px solid #999;padding:4px 8px;text-align:left}</style></head>
<body><h1>${escape(input.title)}</h1>
<p>Audited URL: ${escape(input.url)}</p>
<h2>Overall score: ${summary.score} / 100 (grade ${summary.grade})</h2>
<p>Issues: ${issueCountsText(summary.issueCounts)}. Checked against WCAG 2.1 Level AA, and WCAG 2.2 where an issue names one of its criteria (3.3.8).</p>
${input.crawl ? `<h2>Pages</h2><table><tr><th scope="col">Page</th><th scope="col">Score</th><th scope="col">Grade</th><th scope="col">Issues</th></tr>${pageRows}</table>` : ''}
<h2>Issues by category and severity</h2>${sections}
<h2>Remediation, most important first</h2><ol>${remediation || '<li>Nothing to fix.</li>'}</ol>
</body></html>`;
}
