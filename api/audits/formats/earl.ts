// EARL (W3C's Evaluation and Report Language) in JSON-LD: an assertion per issue, that the page
// (the subject) failed the check (the test, part of the WCAG criteria it judges), with the element
// as a CSS selector pointer. Only failures are asserted: an automated check that found nothing does
// not show that a criterion is met, and the audit keeps no list of what passed.

import { WCAG_CATALOG } from '../../../lib/analysis/wcag-catalog.ts';
import { EARL_CONTEXT, wcagUri } from '../../../lib/earl.ts';
import { checkInfo, TOOL, type FinishedAudit } from './audit-document.ts';

/** EARL's terms, with W3C's Pointer vocabulary for the element and Dublin Core for words and dates. */
export const AUDIT_EARL_CONTEXT = {
  ...EARL_CONTEXT,
  ptr: 'http://www.w3.org/2009/pointers#',
  pointer: { '@id': 'earl:pointer' },
  description: { '@id': 'dct:description' },
  date: { '@id': 'dct:date', '@type': 'http://www.w3.org/2001/XMLSchema#dateTime' },
} as const;

export function earlDocument(audit: FinishedAudit): object {
  const assertor = {
    '@id': '_:audit',
    '@type': ['earl:Assertor', 'earl:Software', 'doap:Project'],
    'doap:name': TOOL.fullName,
    'doap:release': { 'doap:revision': TOOL.version },
  };
  return {
    '@context': AUDIT_EARL_CONTEXT,
    '@graph': audit.pages.flatMap((page) =>
      page.issues.map((issue) => {
        const { helpUri } = checkInfo(issue.ruleId);
        return {
          '@type': 'earl:Assertion',
          assertedBy: assertor,
          mode: 'earl:automatic',
          subject: { '@type': ['earl:TestSubject', 'sch:WebPage'], source: page.url },
          test: {
            '@type': 'earl:TestCase',
            ...(helpUri ? { '@id': helpUri } : {}),
            title: issue.ruleId,
            isPartOf: issue.wcagCriteria.flatMap((criterion) =>
              WCAG_CATALOG.has(criterion) ? [{ '@id': wcagUri(criterion) }] : [],
            ),
          },
          result: {
            '@type': 'earl:TestResult',
            outcome: 'earl:failed',
            description: `${issue.severity}: ${issue.description}`,
            date: audit.completedAt.toISOString(),
            pointer: { '@type': 'ptr:CSSSelectorPointer', 'ptr:expression': issue.element },
          },
        };
      }),
    ),
  };
}
