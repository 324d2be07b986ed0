import type { JsonLdDocument } from 'jsonld';
import { WCAG_CATALOG } from '../../../lib/analysis/wcag-catalog.ts';
import { EARL_CONTEXT, wcagUri } from '../../../lib/earl.ts';
import { W3C_WAI } from './catalogue.ts';
import type { RuleResult } from './scoring.ts';

export interface Tool {
  readonly name: string;
  readonly version: string;
  readonly vendor: string;
}

/**
 * An EARL implementation report in the form W3C's implementations table reads (act-tools frames it
 * for `earl:Assertion`s and rates each procedure, the `test`, on the cases of each rule): for each
 * rule, one assertion per case for each of the tool's checks that reported an issue on one of its
 * cases (failed where it did, passed where it did not, untested where the page could not be
 * audited), its test the check with the criteria it reported as `isPartOf`; a rule no check
 * reported on gets one assertion per case, passed, under the criteria it is judged by.
 */
export function earlReport(tool: Tool, rules: readonly RuleResult[]): JsonLdDocument {
  const assertor = {
    '@id': `_:${tool.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    '@type': ['earl:Assertor', 'earl:Software', 'doap:Project'],
    'doap:name': tool.name,
    'doap:vendor': { '@type': 'sch:Organization', 'sch:name': tool.vendor },
    'doap:release': { 'doap:revision': tool.version },
  };
  const isPartOf = (criteria: Iterable<string>) =>
    [...new Set(criteria)].flatMap((criterion) =>
      WCAG_CATALOG.has(criterion) ? [{ '@id': wcagUri(criterion) }] : [],
    );
  return {
    '@context': EARL_CONTEXT,
    '@graph': rules.flatMap(({ rule, cases }) => {
      const checks = [...new Set(cases.flatMap(({ issues }) => issues.map(({ procedure }) => procedure)))];
      const tests = checks.length
        ? checks.map((check) => ({
            title: `${tool.name}: ${check}`,
            check,
            isPartOf: isPartOf(
              cases.flatMap(({ issues }) =>
                issues.filter(({ procedure }) => procedure === check).flatMap(({ criteria }) => criteria),
              ),
            ),
          }))
        : [{ title: `${tool.name}, WCAG ${rule.judgedBy.join(' ')}`, check: undefined, isPartOf: [] }];
      return tests.flatMap((test) =>
        cases.map((result) => ({
          '@type': 'earl:Assertion',
          assertedBy: assertor,
          mode: 'earl:automatic',
          subject: {
            '@type': ['earl:TestSubject', 'sch:WebPage'],
            source: `${W3C_WAI}${result.actCase.relativePath}`,
          },
          // In EARL's vocabulary, as W3C's reader looks for it (act-tools' getTestRequirement).
          test: { '@type': 'earl:TestCase', title: test.title, isPartOf: test.isPartOf },
          result: {
            '@type': 'earl:TestResult',
            outcome: `earl:${
              result.outcome === 'untested'
                ? 'untested'
                : result.issues.some(({ procedure }) => procedure === test.check)
                  ? 'failed'
                  : 'passed'
            }`,
          },
        })),
      );
    }),
  };
}
