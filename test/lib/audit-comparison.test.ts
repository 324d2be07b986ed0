import assert from 'node:assert/strict';
import { compareWithAudit } from '../../lib/analysis/audit-comparison.ts';

describe('compareWithAudit: testers beside the audit, per WCAG criterion', () => {
  it('groups criteria as both, testers only and the audit only, each in WCAG order', () => {
    const rows = compareWithAudit(
      [
        { criterion: '2.1.1', sessionId: 's1' },
        { criterion: '1.4.3', sessionId: 's1' },
        { criterion: '1.4.3', sessionId: 's2' },
        { criterion: '1.4.3', sessionId: 's2' },
        { criterion: '1.3.1', sessionId: 's2' },
      ],
      [
        { criteria: ['1.4.3'], pageUrl: 'https://a.example/' },
        { criteria: ['1.4.3'], pageUrl: 'https://a.example/cart' },
        { criteria: ['4.1.2', '1.1.1'], pageUrl: 'https://a.example/' },
        { criteria: [], pageUrl: 'https://a.example/' },
      ],
    );
    assert.deepEqual(
      rows.map((r) => [
        r.criterion,
        r.foundBy,
        r.testerFindings,
        r.testerSessions,
        r.auditIssues,
        r.auditPages,
      ]),
      [
        ['1.4.3', 'both', 3, 2, 2, 2],
        ['1.3.1', 'testers', 1, 1, 0, 0],
        ['2.1.1', 'testers', 1, 1, 0, 0],
        ['1.1.1', 'audit', 0, 0, 1, 1],
        ['4.1.2', 'audit', 0, 0, 1, 1],
      ],
    );
    assert.deepEqual(
      { name: rows[0]!.name, level: rows[0]!.level },
      { name: 'Contrast (Minimum)', level: 'AA' },
    );
  });

  it('reads a criterion written with its name, counts an issue once per criterion, and drops what WCAG 2.2 does not name', () => {
    const rows = compareWithAudit(
      [
        { criterion: '2.4.7 Focus Visible', sessionId: 's1' },
        { criterion: '9.9.9', sessionId: 's1' },
        { criterion: 'keyboard', sessionId: 's1' },
        { criterion: '4.1.1', sessionId: 's1' },
      ],
      [{ criteria: ['2.4.7', '2.4.7 Focus Visible'], pageUrl: 'https://a.example/' }],
    );
    assert.deepEqual(
      rows.map((r) => [r.criterion, r.foundBy, r.testerFindings, r.auditIssues]),
      [['2.4.7', 'both', 1, 1]],
    );
  });
});
