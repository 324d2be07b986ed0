// One document for several URLs' audits, in the form each format's readers expect: a JSON array of
// results, one SARIF log with a run per audit, one EARL graph, one JUnit <testsuites>.

import type { Format } from './options.ts';

interface JsonLd {
  '@context': unknown;
  '@graph': unknown[];
}

/** The attributes of JUnit's root element that count, summed over the documents. */
const JUNIT_COUNTS = ['tests', 'failures', 'errors'] as const;

function combinedJunit(documents: readonly string[]): string {
  const totals = Object.fromEntries(JUNIT_COUNTS.map((name) => [name, 0])) as Record<string, number>;
  const suites: string[] = [];
  for (const document of documents) {
    const root = /<testsuites\b([^>]*)>([\s\S]*)<\/testsuites>/.exec(document);
    if (!root) throw new Error('the service answered a JUnit document without <testsuites>');
    for (const name of JUNIT_COUNTS)
      totals[name]! += Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root[1]!)?.[1] ?? 0);
    suites.push(root[2]!.replace(/^\n|\n$/g, ''));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="Accessibility audits" ${JUNIT_COUNTS.map((name) => `${name}="${totals[name]}"`).join(' ')}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

/** The audits' documents (each as the API answered it, in order) as one. */
export function combined(format: Format, documents: readonly string[]): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(
        documents.map((document) => JSON.parse(document) as unknown),
        null,
        2,
      )}\n`;
    case 'sarif': {
      const logs = documents.map((document) => JSON.parse(document) as { runs: unknown[] });
      return `${JSON.stringify({ ...logs[0], runs: logs.flatMap((log) => log.runs) }, null, 2)}\n`;
    }
    case 'earl': {
      const graphs = documents.map((document) => JSON.parse(document) as JsonLd);
      return `${JSON.stringify({ '@context': graphs[0]!['@context'], '@graph': graphs.flatMap((graph) => graph['@graph']) }, null, 2)}\n`;
    }
    case 'junit':
      return combinedJunit(documents);
  }
}
