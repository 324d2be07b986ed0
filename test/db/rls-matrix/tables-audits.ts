import { tableCells, type TableCells } from './matrix.ts';
import { ADMIN, OWNER_ORG, systemRow } from './tables-core.ts';

export const AUDIT_TABLES: readonly TableCells[] = [
  tableCells({
    table: 'audits',
    rule: "audits: readable by the requester, the requester's organization and admins; recorded under one's own id and organization",
    rows: [systemRow({ key: (f) => ({ id: f.audit }), touch: 'score', select: OWNER_ORG })],
    insert: {
      // The fresh audit is A's, requested by the caller.
      allowed: OWNER_ORG,
      row: (into, f, actor) =>
        into.values({
          organization_id: f.organizationA,
          requested_by: actor.sub,
          url: 'https://example.com/pricing',
          score: 70,
          grade: 'C',
          result: JSON.stringify({}),
        }),
    },
  }),
  tableCells({
    table: 'audit_jobs',
    rule: "audit jobs: readable by the requester, the requester's organization and admins; run by the system",
    rows: [
      systemRow({
        key: (f) => ({ id: f.auditJob }),
        touch: 'pages_done',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: OWNER_ORG,
      row: (into, f, actor) =>
        into.values({
          organization_id: f.organizationA,
          requested_by: actor.sub,
          url: 'https://example.com/pricing',
          max_pages: 5,
          crawl: true,
          viewport_width: 1280,
          viewport_height: 800,
          recipients: ['owner@example.com'],
        }),
    },
  }),
  tableCells({
    table: 'audit_pages',
    rule: 'audit pages: follow their audit job, written by the system',
    rows: [systemRow({ key: (f) => ({ id: f.auditPage }), touch: 'score', select: OWNER_ORG })],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({
          audit_job_id: f.auditJob,
          position: 2,
          url: 'https://example.com/about',
          score: 80,
          grade: 'B',
          issue_counts: JSON.stringify({}),
          issues: JSON.stringify([]),
        }),
    },
  }),
  tableCells({
    table: 'audit_screenshots',
    rule: 'audit screenshots: follow their audit page, written by the system',
    rows: [
      systemRow({
        key: (f) => ({ audit_page_id: f.auditPage, issue_id: f.screenshotIssue }),
        touch: 'image',
        select: OWNER_ORG,
      }),
    ],
    insert: {
      allowed: ADMIN,
      row: (into, f) =>
        into.values({ audit_page_id: f.auditPage, issue_id: 'image-alt-1', image: Buffer.from('png') }),
    },
  }),
];
