import assert from 'node:assert/strict';
import { RECOMMENDATION_FOR } from '../../lib/analysis/recommendations.ts';
import { MOMENT_KINDS } from '../../lib/analysis/signals.ts';
import { CRITERION_FOR, WCAG_FOR } from '../../lib/analysis/wcag.ts';
import { currentCriterion, WCAG_CATALOG } from '../../lib/analysis/wcag-catalog.ts';

describe('WCAG 2.2 catalog', () => {
  const current = [...WCAG_CATALOG.values()].filter((c) => !c.obsolete);

  it('holds every success criterion of WCAG 2.2: 86 in force (31 A, 24 AA, 31 AAA)', () => {
    assert.equal(current.length, 86);
    const perLevel = (level: string) => current.filter((c) => c.level === level).length;
    assert.deepEqual([perLevel('A'), perLevel('AA'), perLevel('AAA')], [31, 24, 31]);
    for (const code of ['2.4.11', '2.4.12', '2.4.13', '2.5.7', '2.5.8', '3.2.6', '3.3.7', '3.3.8', '3.3.9']) {
      assert.ok(currentCriterion(code), `${code} (new in 2.2) is missing`);
    }
    assert.deepEqual(WCAG_CATALOG.get('2.1.2'), { code: '2.1.2', name: 'No Keyboard Trap', level: 'A' });
  });

  it('marks 4.1.1 Parsing obsolete, so nothing maps to it', () => {
    assert.equal(WCAG_CATALOG.get('4.1.1')?.obsolete, true);
    assert.equal(currentCriterion('4.1.1'), undefined);
  });

  it('every barrier kind maps to a criterion in force, with the name and level of the catalog', () => {
    for (const kind of MOMENT_KINDS) {
      const code = CRITERION_FOR[kind];
      const criterion = currentCriterion(code);
      assert.ok(criterion, `${kind} maps to ${code}, which is not a WCAG 2.2 criterion in force`);
      assert.deepEqual(WCAG_FOR[kind], { criterion: code, name: criterion.name, level: criterion.level });
      assert.ok(RECOMMENDATION_FOR[code], `no recommendation for ${code} (${kind})`);
    }
  });
});
