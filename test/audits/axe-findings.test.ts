import assert from 'node:assert/strict';
import { axeFindings, type AxeViolation } from '../../activities/audits/axe-check.ts';

/** An axe violation of `id` with these WCAG tags, on one element. */
const violation = (id: string, tags: string[]): AxeViolation => ({
  id,
  impact: 'serious',
  tags,
  help: `${id} help`,
  helpUrl: `https://dequeuniversity.com/rules/axe/${id}`,
  nodes: [{ target: [`#${id}-element`], failureSummary: 'Fix any of the following:\n  detail' }],
});

// docs/decisions/audits.md, "Extra WCAG criteria on axe rules": the criteria WCAG's techniques give the same defects, which axe's
// tags leave out, are added to the rule's own.
describe("axe findings' WCAG criteria", () => {
  it('area-alt also carries 1.1.1 and 2.4.9, link-name 2.4.9, meta-refresh 2.2.4 and 3.2.5; label, select-name, empty-heading and frame-title only their tags', () => {
    const cases: [string, string[], string[]][] = [
      ['label', ['cat.forms', 'wcag2a', 'wcag412'], ['4.1.2']],
      ['select-name', ['cat.forms', 'wcag2a', 'wcag412'], ['4.1.2']],
      ['empty-heading', ['cat.name-role-value', 'best-practice'], []],
      ['frame-title', ['cat.text-alternatives', 'wcag2a', 'wcag412'], ['4.1.2']],
      [
        'area-alt',
        ['cat.text-alternatives', 'wcag2a', 'wcag244', 'wcag412'],
        ['2.4.4', '4.1.2', '1.1.1', '2.4.9'],
      ],
      ['link-name', ['cat.name-role-value', 'wcag2a', 'wcag244', 'wcag412'], ['2.4.4', '4.1.2', '2.4.9']],
      ['meta-refresh', ['cat.time-and-media', 'wcag2a', 'wcag221'], ['2.2.1', '2.2.4', '3.2.5']],
    ];
    for (const [id, tags, criteria] of cases) {
      const [finding] = axeFindings([violation(id, tags)]);
      assert.deepEqual(finding?.wcag, criteria, id);
    }
  });

  it('a finding of level AAA criteria only is minor and says so; one with a level A criterion keeps its impact', () => {
    const [enhanced] = axeFindings([
      violation('color-contrast-enhanced', ['cat.color', 'wcag2aaa', 'wcag146']),
    ]);
    assert.equal(enhanced?.severity, 'minor');
    assert.match(enhanced.description, /^Level AAA: /);
    const [link] = axeFindings([
      violation('link-name', ['cat.name-role-value', 'wcag2a', 'wcag244', 'wcag412']),
    ]);
    assert.equal(link?.severity, 'serious');
    assert.doesNotMatch(link.description, /Level AAA/);
  });

  it('other rules carry only the criteria of their tags, each once', () => {
    const [finding] = axeFindings([
      violation('color-contrast', ['cat.color', 'wcag2aa', 'wcag143', 'wcag143']),
    ]);
    assert.deepEqual(finding?.wcag, ['1.4.3']);
  });

  it('text under the minimum contrast is reported under the enhanced contrast too (axe leaves it out), once', () => {
    const minimum = (selectors: string[], ratio = '4.5'): AxeViolation => ({
      ...violation('color-contrast', ['cat.color', 'wcag2aa', 'wcag143']),
      nodes: selectors.map((selector) => ({
        target: [selector],
        failureSummary: `Fix any of the following:\n  Element has insufficient color contrast of 2.32 (foreground color: #aaaaaa, background color: #ffffff, font size: 12.0pt (16px), font weight: normal). Expected contrast ratio of ${ratio}:1`,
      })),
    });
    const findings = axeFindings([minimum(['p', 'h1'])]);
    assert.deepEqual(
      findings.map(({ ruleId, element, wcag, severity }) => [ruleId, element, wcag, severity]),
      [
        ['color-contrast', 'p', ['1.4.3'], 'serious'],
        ['color-contrast', 'h1', ['1.4.3'], 'serious'],
        ['color-contrast-enhanced', 'p', ['1.4.6'], 'minor'],
        ['color-contrast-enhanced', 'h1', ['1.4.6'], 'minor'],
      ],
    );
    assert.match(findings[2]!.description, /^Level AAA: .*Expected contrast ratio of 7:1$/);
    // Large text: 3:1 at the minimum, 4.5:1 enhanced.
    assert.match(axeFindings([minimum(['h2'], '3')])[1]!.description, /Expected contrast ratio of 4\.5:1$/);
    // An element axe's enhanced rule reported already is not reported twice.
    const both = axeFindings([
      minimum(['p', 'h1']),
      {
        ...violation('color-contrast-enhanced', ['cat.color', 'wcag2aaa', 'wcag146']),
        nodes: [{ target: ['p'] }],
      },
    ]);
    assert.deepEqual(
      both.filter(({ ruleId }) => ruleId === 'color-contrast-enhanced').map(({ element }) => element),
      ['p', 'h1'],
    );
  });
});
