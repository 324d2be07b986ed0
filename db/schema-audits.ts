// Kysely types of the audits tables (db/migrations/0010_audits.sql); merged into `Database` in db/schema.ts.
import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { AuditGrade, AuditJobStatus } from '../lib/domain.ts';

type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface AuditsTable {
  id: Generated<string>;
  organization_id: string | null;
  requested_by: string;
  url: string;
  score: number;
  grade: AuditGrade;
  result: JSONColumnType<object>;
  completed_at: GeneratedTimestamp;
}

export interface AuditJobsTable {
  id: Generated<string>;
  organization_id: string | null;
  requested_by: string;
  url: string;
  crawl: boolean;
  max_pages: number;
  viewport_width: number;
  viewport_height: number;
  report_title: string | null;
  recipients: string[];
  status: ColumnType<AuditJobStatus, AuditJobStatus | undefined, AuditJobStatus>;
  pages_done: ColumnType<number, number | undefined, number>;
  pages_planned: ColumnType<number, number | undefined, number>;
  result: ColumnType<object | null, string | null | undefined, string | null>;
  error: string | null;
  report_delivered_to: string[] | null;
  /** The study whose prototype this audits, queued when the study became active (0045). */
  study_id: ColumnType<string | null, string | null | undefined, string | null>;
  queued_at: GeneratedTimestamp;
  started_at: NullableTimestamp;
  completed_at: NullableTimestamp;
}

export interface AuditPagesTable {
  id: Generated<string>;
  audit_job_id: string;
  position: number;
  url: string;
  score: number;
  grade: AuditGrade;
  issue_counts: JSONColumnType<object>;
  issues: JSONColumnType<object>;
  /** A full audit page's links and buttons in order, for the checks across pages (0046); null before. */
  outline: JSONColumnType<object | null, string | null | undefined, string | null>;
  audited_at: GeneratedTimestamp;
}

export interface AuditScreenshotsTable {
  audit_page_id: string;
  issue_id: string;
  image: Buffer;
}

export interface AuditTables {
  audits: AuditsTable;
  audit_jobs: AuditJobsTable;
  audit_pages: AuditPagesTable;
  audit_screenshots: AuditScreenshotsTable;
}
