// EARL (W3C's Evaluation and Report Language) in JSON-LD: the terms both the audit's EARL answer
// and the ACT Rules benchmark's implementation report use.

import { WCAG_CATALOG } from './analysis/wcag-catalog.ts';

/**
 * The JSON-LD context W3C's implementation reports use (act-rules/act-tools' earl-context.json, the
 * terms this report needs): EARL as the vocabulary (`isPartOf` included, where W3C's reader looks for
 * it), Dublin Core's `source` and `title`, DOAP for the tool.
 */
export const EARL_CONTEXT = {
  '@vocab': 'http://www.w3.org/ns/earl#',
  earl: 'http://www.w3.org/ns/earl#',
  WCAG: 'https://www.w3.org/TR/WCAG/#',
  dct: 'http://purl.org/dc/terms/',
  doap: 'http://usefulinc.com/ns/doap#',
  sch: 'https://schema.org/',
  assertedBy: { '@id': 'earl:assertedBy', '@type': '@id' },
  result: { '@id': 'earl:result', '@type': '@id' },
  test: { '@id': 'earl:test' },
  outcome: { '@type': '@id' },
  mode: { '@type': '@id' },
  subject: { '@id': 'earl:subject' },
  source: { '@id': 'dct:source' },
  title: { '@id': 'dct:title' },
} as const;

/** A criterion's anchor in WCAG 2.2 (`1.4.3` -> https://www.w3.org/TR/WCAG22/#contrast-minimum), which W3C reads as `WCAG2:contrast-minimum`. */
export function wcagUri(criterion: string): string {
  const name = WCAG_CATALOG.get(criterion)?.name;
  if (!name) throw new Error(`no WCAG criterion ${criterion}`);
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `https://www.w3.org/TR/WCAG22/#${slug}`;
}
