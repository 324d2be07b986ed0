import type { ColumnType, Generated } from 'kysely';
import type {
  Device,
  MemberRole,
  Plan,
  PrototypeType,
  StudyStatus,
  TesterStatus,
  ToneProfile,
  UserRole,
} from '../lib/domain.ts';
import type { AuditTables } from './schema-audits.ts';
import type { AuthTables } from './schema-auth.ts';
import type { WebhookTables } from './schema-webhooks.ts';
import type {
  AwardedBadgesTable,
  BadgesTable,
  CommunityStatsSnapshotsTable,
  NotificationOutboxTable,
  PointLedgerTable,
  GamificationEvaluationsTable,
} from './schema-engagement.ts';
import type {
  CheckoutSessionsTable,
  PaymentsTable,
  ProviderEventsTable,
  ReviewCallBookingsTable,
} from './schema-payments.ts';
import type {
  CapacityReviewsTable,
  OutreachMessagesTable,
  ProposalsTable,
  ReportsTable,
  StudyReportsTable,
} from './schema-reports.ts';
import type {
  AgentJobsTable,
  FacialSnapshotsTable,
  QueuedAiWorkTable,
  SessionEventsTable,
  SessionFeedbackTable,
  SessionNotesTable,
  SessionRecordingChunksTable,
  FindingScreenshotsTable,
  TaskAttemptsTable,
  SessionsTable,
  VoiceSegmentsTable,
} from './schema-sessions.ts';
import type {
  PayoutAccountsTable,
  QuizQuestionsTable,
  QuizAttemptsTable,
  TesterStatusChangesTable,
  QuizzesTable,
  TesterProfilesTable,
} from './schema-testers.ts';

/** Timestamps come back from pg as Date and may be written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in by default. */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric columns come back from pg as strings to keep their precision. */
export type Numeric = ColumnType<string, number | string, number | string>;
/** A column with a database default: optional on insert. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** bigint identity columns: pg returns them as strings; the database always generates them. */
export type Identity = ColumnType<string, never, never>;
/** A jsonb object; pg serialises plain objects itself. */
export type JsonObject<T = Record<string, unknown>> = ColumnType<T, T | string, T | string>;
export type DefaultedJsonObject<T = Record<string, unknown>> = ColumnType<
  T,
  T | string | undefined,
  T | string
>;
/** A jsonb array, written as JSON text: pg would send a JS array as a SQL array. */
export type JsonArray<T> = ColumnType<T[], string, string>;
export type DefaultedJsonArray<T> = ColumnType<T[], string | undefined, string>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  plan: ColumnType<Plan, Plan | undefined, Plan>;
  created_at: GeneratedTimestamp;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  role: UserRole;
  display_name: string | null;
  password_hash: string | null;
  /** Added by 0011_auth.sql: a suspended user cannot log in. */
  status: ColumnType<TesterStatus, TesterStatus | undefined>;
  created_at: GeneratedTimestamp;
}

export interface OrganizationMembershipsTable {
  organization_id: string;
  user_id: string;
  member_role: ColumnType<MemberRole, MemberRole | undefined, MemberRole>;
  created_at: GeneratedTimestamp;
}

export interface StudiesTable {
  id: Generated<string>;
  organization_id: string;
  created_by: string | null;
  title: string;
  description: string;
  prototype_url: string;
  prototype_type: PrototypeType;
  target_countries: string[];
  target_age_min: number | null;
  target_age_max: number | null;
  target_devices: Device[];
  target_languages: string[];
  tester_count: number;
  ab_test_enabled: boolean;
  compensation_currency: string;
  compensation_amount: Numeric;
  compensation_type: 'flat';
  require_think_aloud: boolean;
  record_screen: boolean;
  record_facial: boolean;
  record_voice: boolean;
  max_duration_minutes: number;
  reminder_after_hours: number | null;
  tone_profile: ToneProfile;
  notes_confirmed: Generated<boolean>;
  status: ColumnType<StudyStatus, StudyStatus | undefined, StudyStatus>;
  estimated_launch_date: Timestamp;
  idempotency_key: string | null;
  request_hash: string | null;
  paid_at: Timestamp | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** 0026: when the lifecycle reconciler found (or started) the study's workflow. */
  workflow_seen_at: Timestamp | null;
}

export interface StudyTasksTable {
  id: Generated<string>;
  study_id: string;
  position: number;
  title: string;
  description: string;
  success_criteria: string | null;
}

export interface StudyVariantsTable {
  id: Generated<string>;
  study_id: string;
  /** 1, 2, ...: the order the creator listed the variants in (0014). */
  position: number;
  label: string;
  description: string;
  split_ratio: Numeric;
}

/** Every table; areas with their own owners keep their types in `schema-<area>.ts`. */
export interface Database extends AuditTables, AuthTables, WebhookTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  organization_memberships: OrganizationMembershipsTable;
  studies: StudiesTable;
  study_tasks: StudyTasksTable;
  study_variants: StudyVariantsTable;
  // The data model of issue 3 (db/migrations/0004-0009), typed in schema-<area>.ts.
  quizzes: QuizzesTable;
  quiz_questions: QuizQuestionsTable;
  quiz_attempts: QuizAttemptsTable;
  tester_status_changes: TesterStatusChangesTable;
  tester_profiles: TesterProfilesTable;
  payout_accounts: PayoutAccountsTable;
  sessions: SessionsTable;
  session_feedback: SessionFeedbackTable;
  session_events: SessionEventsTable;
  facial_snapshots: FacialSnapshotsTable;
  voice_segments: VoiceSegmentsTable;
  agent_jobs: AgentJobsTable;
  session_notes: SessionNotesTable;
  task_attempts: TaskAttemptsTable;
  session_recording_chunks: SessionRecordingChunksTable;
  finding_screenshots: FindingScreenshotsTable;
  queued_ai_work: QueuedAiWorkTable;
  reports: ReportsTable;
  study_reports: StudyReportsTable;
  proposals: ProposalsTable;
  outreach_messages: OutreachMessagesTable;
  capacity_reviews: CapacityReviewsTable;
  payments: PaymentsTable;
  provider_events: ProviderEventsTable;
  review_call_bookings: ReviewCallBookingsTable;
  checkout_sessions: CheckoutSessionsTable;
  badges: BadgesTable;
  awarded_badges: AwardedBadgesTable;
  point_ledger: PointLedgerTable;
  gamification_evaluations: GamificationEvaluationsTable;
  community_stats_snapshots: CommunityStatsSnapshotsTable;
  notification_outbox: NotificationOutboxTable;
}
