// JUnit XML, the test report every CI server shows: a test suite per audited page, a test case per
// failed check on it (its elements and their issues in the failure), and a passing case for a page
// with no issue, so that a clean page shows as a test that passed rather than no test at all.

import { escapeHtml } from '../../http/escape-html.ts';
import { failedChecks, worstSeverity, type FinishedAudit } from './audit-document.ts';

/** Text for an XML attribute or element: escaped, and without the control characters XML 1.0 forbids. */
const xml = (text: string): string =>
  escapeHtml(text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD'));

export function junitDocument(audit: FinishedAudit): string {
  const pages = audit.pages.map((page) => ({ url: page.url, checks: failedChecks(page.issues) }));
  const suites = pages.map(({ url, checks }) => {
    const cases = checks.length
      ? checks.map(({ ruleId, issues }) => {
          const criteria = [...new Set(issues.flatMap((issue) => issue.wcagCriteria))];
          const name = `${ruleId}${criteria.length ? ` (WCAG ${criteria.join(', ')})` : ''}`;
          const details = issues
            .map((issue) => `[${issue.severity}] ${issue.element}: ${issue.description}`)
            .join('\n');
          const message = `${issues.length} element${issues.length === 1 ? '' : 's'}: ${issues[0]!.description}`;
          return `    <testcase classname="${xml(url)}" name="${xml(name)}"><failure type="${worstSeverity(issues)}" message="${xml(message)}">${xml(details)}</failure></testcase>`;
        })
      : [`    <testcase classname="${xml(url)}" name="no accessibility issue found"/>`];
    return {
      tests: cases.length,
      failures: checks.length,
      text: [
        `  <testsuite name="${xml(url)}" tests="${cases.length}" failures="${checks.length}" errors="0" skipped="0" timestamp="${audit.completedAt.toISOString().slice(0, 19)}">`,
        ...cases,
        '  </testsuite>',
      ].join('\n'),
    };
  });
  const total = (count: 'tests' | 'failures') => suites.reduce((sum, suite) => sum + suite[count], 0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`Accessibility audit of ${audit.url} (score ${audit.score}, grade ${audit.grade})`)}" tests="${total('tests')}" failures="${total('failures')}" errors="0">`,
    ...suites.map((suite) => suite.text),
    '</testsuites>',
    '',
  ].join('\n');
}
