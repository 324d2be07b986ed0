import { z } from 'zod';
import type { RouteResult } from '../../http/route.ts';
import { AUDIT_FORMATS, DOCUMENT_TYPES, type AuditFormat, type FinishedAudit } from './audit-document.ts';
import { earlDocument } from './earl.ts';
import { junitDocument } from './junit.ts';
import { sarifDocument } from './sarif.ts';

export const auditFormatQuery = z.object({
  format: z
    .enum(AUDIT_FORMATS)
    .default('json')
    .describe(
      'json: the envelope; sarif: SARIF 2.1.0; junit: JUnit XML; earl: EARL in JSON-LD (failures only). The other formats answer outside the envelope.',
    ),
});

/** The route's `documents`: what each format other than json answers in. */
export const AUDIT_DOCUMENTS: Readonly<Record<string, string>> = {
  [DOCUMENT_TYPES.sarif]: 'format=sarif: a SARIF 2.1.0 log, one run, each issue a result',
  [DOCUMENT_TYPES.junit]:
    'format=junit: JUnit XML, a test suite per page, a failed test case per failed check',
  [DOCUMENT_TYPES.earl]: 'format=earl: EARL assertions in JSON-LD, one per issue, each a failure',
};

/**
 * The answer in `format`: the envelope around `data` for json, else the audit as that document,
 * with where the same document can be read again (`readAt`, without its query).
 */
export function auditAnswer(
  format: AuditFormat,
  data: unknown,
  readAt: string,
  audit: () => FinishedAudit,
): RouteResult {
  if (format === 'json') return { data };
  const location = `${readAt}?format=${format}`;
  const body = {
    sarif: () => JSON.stringify(sarifDocument(audit())),
    junit: () => junitDocument(audit()),
    earl: () => JSON.stringify(earlDocument(audit())),
  }[format]();
  return { document: { type: DOCUMENT_TYPES[format], body, location } };
}
