import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { CASES } from '../bench/audit-conformance/cases.ts';

const PAGES = new URL('../bench/audit-conformance/pages/', import.meta.url);

// The conformance benchmark (npm run bench -- audit-conformance) is only as good as its pages:
// issue 17 asks for at least 60, across the six categories, each a pass or a fail of one rule.
describe('the conformance benchmark pages', () => {
  it('are at least 60, each a page that exists, named once, judged by WCAG criteria', () => {
    assert.ok(CASES.length >= 60, `${CASES.length} pages`);
    assert.equal(new Set(CASES.map((c) => c.page)).size, CASES.length);
    for (const c of CASES) {
      assert.ok(existsSync(new URL(c.page, PAGES)), c.page);
      assert.ok(c.criteria.length > 0 && c.criteria.every((k) => /^\d\.\d\.\d+$/.test(k)), c.page);
    }
  });

  it('hold a passed and a failed page in every category', () => {
    for (const category of AUDIT_CATEGORIES) {
      for (const expected of ['passed', 'failed'] as const) {
        assert.ok(
          CASES.some((c) => c.category === category && c.expected === expected),
          `${category}: no ${expected} page`,
        );
      }
    }
  });
});
