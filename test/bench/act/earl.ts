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
 * for `earl:Assertion`s): one assertion per case, its subject the case's address on w3.org, its test
 * the tool's procedure for the rule (named by the criteria it judges) with the criteria it reported
 * as `isPartOf`, its result the case's outcome.
 */
export function earlReport(tool: Tool, rules: readonly RuleResult[]): JsonLdDocument {
  const assertor = {
    '@id': `_:${tool.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    '@type': ['earl:Assertor', 'earl:Software', 'doap:Project'],
    'doap:name': tool.name,
    'doap:vendor': { '@type': 'sch:Organization', 'sch:name': tool.vendor },
    'doap:release': { 'doap:revision': tool.version },
  };
  return {
    '@context': EARL_CONTEXT,
    '@graph': rules.flatMap(({ rule, cases }) =>
      cases.map((result) => ({
        '@type': 'earl:Assertion',
        assertedBy: assertor,
        mode: 'earl:automatic',
        subject: {
          '@type': ['earl:TestSubject', 'sch:WebPage'],
          source: `${W3C_WAI}${result.actCase.relativePath}`,
        },
        test: {
          '@type': 'earl:TestCase',
          title: `${tool.name}, WCAG ${rule.judgedBy.join(' ')}`,
          // In EARL's vocabulary, as W3C's reader looks for it (act-tools' getTestRequirement).
          isPartOf: result.reportedUnder.flatMap((criterion) =>
            WCAG_CATALOG.has(criterion) ? [{ '@id': wcagUri(criterion) }] : [],
          ),
        },
        result: { '@type': 'earl:TestResult', outcome: `earl:${result.outcome}` },
      })),
    ),
  };
}
