import assert from 'node:assert/strict';
import { remediationOf, summarize, type ReportPage } from '../../activities/audits/report.ts';
import { checkPenalty, gradeOf, scoreOf } from '../../activities/audits/score.ts';
import type { CheckOutcome, Severity } from '../../lib/audits.ts';

const failed = (severity: Severity, elements = 1): CheckOutcome => ({
  ruleId: `rule-${severity}-${elements}`,
  category: 'aria',
  severity,
  issues: Array.from({ length: elements }, (_, i) => ({
    issueId: String(i),
    ruleId: 'r',
    category: 'aria' as const,
    severity,
    element: `#e${i}`,
    description: '',
    wcagCriteria: [],
  })),
});

describe('audit score and grade', () => {
  it('grade bands: 90-100 A, 80-89 B, 70-79 C, 60-69 D, below 60 F', () => {
    const cases: [number, string][] = [
      [100, 'A'],
      [90, 'A'],
      [89, 'B'],
      [80, 'B'],
      [79, 'C'],
      [70, 'C'],
      [69, 'D'],
      [60, 'D'],
      [59, 'F'],
      [0, 'F'],
    ];
    for (const [score, grade] of cases) assert.equal(gradeOf(score), grade, String(score));
  });

  it('a page with no failed check scores 100', () => {
    assert.equal(scoreOf([]), 100);
  });

  it('one critical failure costs more than one serious, which costs more than moderate and minor', () => {
    const [critical, serious, moderate, minor] = (['critical', 'serious', 'moderate', 'minor'] as const).map(
      (s) => scoreOf([failed(s)]),
    ) as [number, number, number, number];
    assert.ok(critical < serious, `critical ${critical} < serious ${serious}`);
    assert.ok(serious < moderate, `serious ${serious} < moderate ${moderate}`);
    assert.ok(moderate < minor, `moderate ${moderate} < minor ${minor}`);
    assert.ok(minor < 100, 'even a minor failure costs something');
    assert.ok(critical < 90, 'a single critical failure (a keyboard trap) keeps a page out of grade A');
  });

  it('more failing elements weigh more, but a check never weighs more than twice its severity', () => {
    assert.ok(checkPenalty('serious', 4) > checkPenalty('serious', 1));
    assert.equal(checkPenalty('serious', 10_000), 2 * checkPenalty('serious', 1));
  });

  it("a full audit's score is the mean of its page scores, graded by the same bands", () => {
    const page = (position: number, score: number): ReportPage => ({
      position,
      url: `https://example.com/${position}`,
      score,
      grade: gradeOf(score),
      issueCounts: { critical: 0, serious: 0, moderate: 0, minor: 0 },
      issues: [],
      fixes: {},
    });
    const summary = summarize([page(1, 100), page(2, 78), page(3, 61)]);
    assert.equal(summary.score, 80);
    assert.equal(summary.grade, 'B');
  });

  it('remediation lists level AAA checks after every check that costs score, however many elements fail them', () => {
    const issue = (ruleId: string, element: string, wcagCriteria: string[]) => ({
      issueId: `${ruleId}-${element}`,
      ruleId,
      category: 'contrast' as const,
      severity: 'minor' as const,
      element,
      description: '',
      wcagCriteria,
    });
    const enhanced = Array.from({ length: 9 }, (_, i) =>
      issue('color-contrast-enhanced', `#p${i}`, ['1.4.6']),
    );
    const fixes = { 'color-contrast-enhanced': 'darker', 'link-in-text-block': 'underline' };
    const [first, second] = remediationOf([
      {
        position: 1,
        url: 'https://example.com/',
        score: 99,
        grade: 'A',
        issueCounts: { critical: 0, serious: 0, moderate: 0, minor: 10 },
        issues: [...enhanced, issue('link-in-text-block', '#a', ['1.4.1'])],
        fixes,
      },
    ]);
    assert.deepEqual([first?.ruleId, second?.ruleId], ['link-in-text-block', 'color-contrast-enhanced']);
  });
});
