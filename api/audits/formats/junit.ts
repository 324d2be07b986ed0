// JUnit XML, the test report every CI server shows: a test suite per audited page, a test case per
// failed check on it (its elements and their issues in the failure), and a passing case for a page
// with no issue, so that a clean page shows as a test that passed rather than no test at all.

import { failedChecks, worstSeverity, type FinishedAudit } from './audit-document.ts';

const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text for an XML attribute or element: escaped, and without the control characters XML 1.0 forbids. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

export function junitDocument(audit: FinishedAudit): string {
  const suites = audit.pages.map((page) => {
    const checks = failedChecks(page.issues);
    const cases = checks.length
      ? checks.map(({ ruleId, issues }) => {
          const criteria = [...new Set(issues.flatMap((issue) => issue.wcagCriteria))];
          const name = `${ruleId}${criteria.length ? ` (WCAG ${criteria.join(', ')})` : ''}`;
          const details = issues
            .map((issue) => `[${issue.severity}] ${issue.element}: ${issue.description}`)
            .join('\n');
          const message = `${issues.length} element${issues.length === 1 ? '' : 's'}: ${issues[0]!.description}`;
          return `    <testcase classname="${xml(page.url)}" name="${xml(name)}"><failure type="${worstSeverity(issues)}" message="${xml(message)}">${xml(details)}</failure></testcase>`;
        })
      : [`    <testcase classname="${xml(page.url)}" name="no accessibility issue found"/>`];
    return [
      `  <testsuite name="${xml(page.url)}" tests="${cases.length}" failures="${checks.length}" errors="0" skipped="0" timestamp="${audit.completedAt.toISOString().slice(0, 19)}">`,
      ...cases,
      '  </testsuite>',
    ].join('\n');
  });
  const tests = audit.pages.reduce((sum, page) => sum + Math.max(1, failedChecks(page.issues).length), 0);
  const failures = audit.pages.reduce((sum, page) => sum + failedChecks(page.issues).length, 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`Accessibility audit of ${audit.url} (score ${audit.score}, grade ${audit.grade})`)}" tests="${tests}" failures="${failures}" errors="0">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
