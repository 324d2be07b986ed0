import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsonld from 'jsonld';
import { rulesOf, type ActCase, type ActRule } from '../bench/act/catalogue.ts';
import { earlReport } from '../bench/act/earl.ts';
import { EARL_CONTEXT, wcagUri } from '../../lib/earl.ts';
import { isCorrect, judgeCase, judgeRule, score } from '../bench/act/scoring.ts';
import { startFixtureServer } from './fixture-server.ts';

type Entry = Parameters<typeof rulesOf>[0][number];

const entry = (
  ruleId: string,
  expected: ActCase['expected'],
  requirements: Entry['ruleAccessibilityRequirements'],
  n: number,
  ext = 'html',
): Entry => ({
  ruleId,
  ruleName: `rule ${ruleId}`,
  testcaseId: `${ruleId}-${n}`,
  testcaseTitle: `${expected} example ${n}`,
  expected,
  relativePath: `testcases/${ruleId}/${ruleId}-${n}.${ext}`,
  ruleAccessibilityRequirements: requirements,
});

const LINK = {
  'wcag20:4.1.2': { forConformance: true },
  'wcag20:2.4.4': { forConformance: true },
  // For conformance, yet secondary: allowed, never required (as W3C's data marks c487ae's 2.4.9).
  'wcag20:2.4.9': { forConformance: true, secondary: true },
  'wcag-technique:H30': { forConformance: false },
};
const ROLE = { 'wcag20:1.3.1': {}, 'wcag20:4.1.2': {} };

/** An assertion as framing gives it back: one value where the report had one. */
interface FramedAssertion {
  subject: { source: string };
  result: { outcome: string };
  test: { title: string; isPartOf: unknown };
}

describe('the ACT benchmark: catalogue, scoring the W3C way, EARL (test/bench/act)', () => {
  const [link, role, decorative] = rulesOf([
    entry('c487ae', 'failed', LINK, 1),
    entry('c487ae', 'failed', LINK, 2),
    entry('c487ae', 'passed', LINK, 3),
    entry('c487ae', 'inapplicable', LINK, 4),
    entry('c487ae', 'passed', LINK, 5, 'svg'),
    entry('674b10', 'failed', ROLE, 1),
    entry('46ca7f', 'failed', {}, 1),
  ]) as [ActRule, ActRule, ActRule];
  /** A page where the check `procedure` reported an issue under `criteria`. */
  const flagged = (criteria: string[], procedure = 'check') => ({ issues: [{ procedure, criteria }] });
  /** A page with issues under other criteria only: a contrast failure and a best practice. */
  const clean = {
    issues: [
      { procedure: 'contrast', criteria: ['1.4.3'] },
      { procedure: 'landmarks', criteria: [] },
    ],
  };

  it('judges a rule by its criteria for conformance, else its secondary ones, else 4.1.2; only HTML cases', () => {
    assert.deepEqual(
      [link.conformance, link.secondary, link.judgedBy],
      [['4.1.2', '2.4.4'], ['2.4.9'], ['4.1.2', '2.4.4']],
    );
    assert.deepEqual([role.conformance, role.judgedBy], [[], ['1.3.1', '4.1.2']]);
    assert.deepEqual([decorative.conformance, decorative.judgedBy], [[], ['4.1.2']]);
    assert.deepEqual(
      link.cases.map((c) => c.testcaseId),
      ['c487ae-1', 'c487ae-2', 'c487ae-3', 'c487ae-4'],
    );
  });

  it('a case is failed when an issue is under one of its rule criteria; others and best practices do not count', () => {
    const [failed, , passed, inapplicable] = link.cases as [ActCase, ActCase, ActCase, ActCase];
    const hit = judgeCase(link, failed, {
      issues: [
        { procedure: 'link-name', criteria: ['2.4.4', '2.4.9'] },
        { procedure: 'contrast', criteria: ['1.4.3'] },
      ],
    });
    assert.deepEqual([hit.outcome, hit.reportedUnder, isCorrect(hit)], ['failed', ['2.4.4', '2.4.9'], true]);
    const missed = judgeCase(link, failed, clean);
    assert.deepEqual([missed.outcome, isCorrect(missed)], ['passed', false]);
    assert.equal(isCorrect(judgeCase(link, passed, clean)), true);
    assert.equal(isCorrect(judgeCase(link, passed, flagged(['4.1.2']))), false);
    assert.equal(isCorrect(judgeCase(link, inapplicable, flagged(['2.4.4']))), false);
    // A page the tool could not audit is right for no expectation.
    const error = judgeCase(link, passed, { error: '422 timeout' });
    assert.deepEqual([error.outcome, isCorrect(error)], ['untested', false]);
  });

  it('rates a rule by criteria alone: consistent, partially consistent, inconsistent, untested', () => {
    const [f1, f2, p, i] = link.cases as [ActCase, ActCase, ActCase, ActCase];
    const run = (verdicts: Parameters<typeof judgeCase>[2][]) =>
      judgeRule(
        link,
        [f1, f2, p, i].map((c, index) => judgeCase(link, c, verdicts[index]!)),
      );
    const both = flagged(['4.1.2', '2.4.4']);
    assert.equal(run([both, both, clean, clean]).criteriaConsistency, 'consistent');
    assert.equal(run([both, both, clean, clean]).correct, 4);
    // A secondary criterion reported beside them is allowed; one the rule does not name is not.
    const withSecondary = flagged(['4.1.2', '2.4.4', '2.4.9']);
    assert.equal(run([withSecondary, both, clean, clean]).criteriaConsistency, 'consistent');
    const withOther = flagged(['4.1.2', '2.4.4', '1.3.1']);
    assert.equal(run([withOther, both, clean, clean]).criteriaConsistency, 'partially consistent');
    // Every failed case found, but never under 2.4.4: the rule's requirements are not all reported.
    assert.equal(
      run([flagged(['4.1.2']), flagged(['4.1.2']), clean, clean]).criteriaConsistency,
      'partially consistent',
    );
    assert.equal(run([both, clean, clean, clean]).criteriaConsistency, 'partially consistent');
    assert.equal(run([both, both, clean, { error: 'timeout' }]).criteriaConsistency, 'partially consistent');
    assert.equal(run([both, both, both, clean]).criteriaConsistency, 'inconsistent');
    assert.equal(run([clean, clean, clean, clean]).criteriaConsistency, 'untested');
  });

  it("rates a rule as W3C's table does: each check alone, the best level, partial checks together", () => {
    const [f1, f2, p, i] = link.cases as [ActCase, ActCase, ActCase, ActCase];
    const run = (verdicts: Parameters<typeof judgeCase>[2][], rule = link, cases = [f1, f2, p, i]) =>
      judgeRule(
        rule,
        cases.map((c, index) => judgeCase(rule, c, verdicts[index]!)),
      );
    const both = ['4.1.2', '2.4.4'];
    // Another check flags the inapplicable case under the rule's criterion (a field without a name
    // on a page about links): wrong by criteria, yet the link check alone is consistent.
    const beside = run([flagged(both, 'link'), flagged(both, 'link'), clean, flagged(['4.1.2'], 'label')]);
    assert.deepEqual(
      [beside.consistency, beside.procedures, beside.criteriaConsistency, beside.correct],
      ['consistent', ['link'], 'inconsistent', 3],
    );
    // Two checks that each find one failed case: each partial, together consistent.
    const split = run([flagged(both, 'link'), flagged(both, 'image-link'), clean, clean]);
    assert.deepEqual([split.consistency, split.procedures], ['consistent', ['image-link', 'link']]);
    // Every failed case found, but never under 2.4.4: the rule's requirements are not all reported.
    assert.equal(
      run([flagged(['4.1.2']), flagged(['4.1.2']), clean, clean]).consistency,
      'partially consistent',
    );
    // A check under a criterion the rule does not name is not the rule's.
    assert.equal(
      run([flagged([...both, '1.3.1']), flagged(both), clean, clean]).consistency,
      'partially consistent',
    );
    assert.equal(
      run([flagged(both), flagged(both), clean, { error: 'timeout' }]).consistency,
      'partially consistent',
    );
    // The one check that finds the failed cases flags a passed one too.
    const wrong = run([flagged(both), flagged(both), flagged(both), clean]);
    assert.deepEqual([wrong.consistency, wrong.procedures], ['inconsistent', []]);
    assert.equal(run([clean, clean, clean, clean]).consistency, 'untested');
    // A rule that names no criterion is met by a check that names none either (a best practice).
    const [exposed] = decorative.cases as [ActCase];
    assert.equal(run([flagged([], 'presentation')], decorative, [exposed]).consistency, 'consistent');
    assert.equal(
      run([flagged(['4.1.2'], 'presentation')], decorative, [exposed]).consistency,
      'partially consistent',
    );
  });

  it('counts right cases only in rules a WCAG criterion requires, and consistent rules among all', () => {
    const scores = score([link, role, decorative], (c) =>
      c.expected === 'failed' ? flagged(c.ruleId === 'c487ae' ? ['4.1.2', '2.4.4'] : ['4.1.2']) : clean,
    );
    assert.deepEqual([scores.correct, scores.scoredCases], [4, 4]);
    // The decorative rule names no criterion, so any it is reported under makes it partial at best.
    assert.deepEqual(
      scores.rules.map((rule) => [rule.consistency, rule.criteriaConsistency]),
      [
        ['consistent', 'consistent'],
        ['consistent', 'consistent'],
        ['partially consistent', 'partially consistent'],
      ],
    );
    assert.deepEqual([scores.consistentRules, scores.consistentRulesByCriteria], [2, 2]);
  });

  it('names each criterion by its WCAG 2.2 anchor', () => {
    assert.deepEqual(
      ['1.1.1', '1.3.5', '1.4.3', '1.4.12', '2.1.3', '2.4.4', '3.2.5', '4.1.2', '2.5.8'].map(wcagUri),
      [
        'non-text-content',
        'identify-input-purpose',
        'contrast-minimum',
        'text-spacing',
        'keyboard-no-exception',
        'link-purpose-in-context',
        'change-on-request',
        'name-role-value',
        'target-size-minimum',
      ].map((slug) => `https://www.w3.org/TR/WCAG22/#${slug}`),
    );
  });

  it('writes an EARL report that is JSON-LD W3C reads: an assertion per case and check, its w3.org address, outcome and criteria', async () => {
    const scores = score([link], (c) =>
      c.testcaseId === 'c487ae-1' ? flagged(['4.1.2'], 'link-name') : { issues: [] },
    );
    const report = earlReport({ name: 'Instant audit', version: '1.0.0', vendor: 'us' }, scores.rules);
    // Framed for assertions the way W3C's tool (act-tools) reads a report.
    const framed = await jsonld.frame(report, { '@context': EARL_CONTEXT, '@type': 'earl:Assertion' });
    const assertions = framed['@graph'] as unknown as FramedAssertion[];
    assert.equal(assertions.length, 4);
    const bySource = (name: string) => assertions.find((a) => a.subject.source.endsWith(name))!;
    const first = bySource('c487ae-1.html');
    assert.equal(
      first.subject.source,
      'https://www.w3.org/WAI/content-assets/wcag-act-rules/testcases/c487ae/c487ae-1.html',
    );
    assert.equal(first.result.outcome, 'earl:failed');
    assert.deepEqual(first.test.isPartOf, { '@id': 'https://www.w3.org/TR/WCAG22/#name-role-value' });
    assert.equal(first.test.title, 'Instant audit: link-name');
    assert.equal(bySource('c487ae-2.html').result.outcome, 'earl:passed');
    // As RDF: every node and term well formed, one earl:outcome per assertion.
    const quads = (await jsonld.toRDF(report, {
      format: 'application/n-quads',
    })) as string;
    assert.equal(quads.match(/<http:\/\/www\.w3\.org\/ns\/earl#outcome>/g)?.length, 4);
  });

  it('the fixture server serves the ACT cases under /WAI/ byte for byte, typed by extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'act-'));
    const previous = process.env.ACT_RULES_DIR;
    process.env.ACT_RULES_DIR = dir;
    const server = await startFixtureServer();
    try {
      await mkdir(join(dir, 'content-assets', 'test-assets'), { recursive: true });
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);
      await writeFile(join(dir, 'content-assets', 'test-assets', 'w3c.png'), png);
      await writeFile(
        join(dir, 'content-assets', 'case.html'),
        '<!doctype html><title>{{CROSS_ORIGIN}}</title>',
      );
      const image = await fetch(`${server.url}/WAI/content-assets/test-assets/w3c.png`);
      assert.equal(image.headers.get('content-type'), 'image/png');
      assert.deepEqual(Buffer.from(await image.arrayBuffer()), png);
      const page = await fetch(`${server.url}/WAI/content-assets/case.html`);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(await page.text(), '<!doctype html><title>{{CROSS_ORIGIN}}</title>');
      assert.equal((await fetch(`${server.url}/WAI/content-assets/missing.html`)).status, 404);
      assert.equal((await fetch(`${server.url}/WAI/%2e%2e/%2e%2e/etc/passwd`)).status, 404);
      assert.equal((await fetch(`${server.url}/WAI/content-assets/%E0%A4%A.html`)).status, 400);
    } finally {
      await server.stop();
      if (previous === undefined) delete process.env.ACT_RULES_DIR;
      else process.env.ACT_RULES_DIR = previous;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
