import type { ColumnType, Generated } from 'kysely';
import type { AuditTables } from './schema-audits.ts';
import type { AuthTables } from './schema-auth.ts';

/** Timestamps come back from pg as Date and may be written as Date or ISO string. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills in by default. */
export type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric columns come back from pg as strings to keep their precision. */
export type Numeric = ColumnType<string, number | string, number | string>;

export type Plan = 'free' | 'pro';
export type UserRole = 'business' | 'tester' | 'admin';
export type StudyStatus = 'draft' | 'active' | 'paused' | 'completed' | 'archived';
export type PrototypeType = 'design_tool_1' | 'design_tool_2' | 'design_tool_3' | 'url';
export type Device = 'desktop' | 'mobile' | 'tablet';
export type ToneProfile = 'standard' | 'supportive' | 'moderate' | 'restorative';

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
  created_at: GeneratedTimestamp;
}

export interface OrganizationMembershipsTable {
  organization_id: string;
  user_id: string;
  member_role: ColumnType<'owner' | 'member', 'owner' | 'member' | undefined, 'owner' | 'member'>;
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
  label: string;
  description: string;
  split_ratio: Numeric;
}

/** Every table; areas with their own owners keep their types in `schema-<area>.ts`. */
export interface Database extends AuditTables, AuthTables {
  organizations: OrganizationsTable;
  users: UsersTable;
  organization_memberships: OrganizationMembershipsTable;
  studies: StudiesTable;
  study_tasks: StudyTasksTable;
  study_variants: StudyVariantsTable;
}
