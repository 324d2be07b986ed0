import type { Generated } from 'kysely';
import type {
  CapacityReviewStatus,
  Channel,
  OfferStatus,
  OutreachStatus,
  ProposalStatus,
  ReportFormat,
  ToneProfile,
} from '../lib/domain.ts';
import type { Defaulted, GeneratedTimestamp, JsonObject, Numeric, Timestamp } from './schema.ts';

// Kysely types of db/migrations/0007_reports_outreach.sql; listed in `Database` in db/schema.ts.

export interface ReportsTable {
  id: Generated<string>;
  organization_id: string;
  study_id: string;
  session_id: string;
  tester_id: string;
  agent_job_id: string | null;
  tone_profile: ToneProfile;
  report_format: Defaulted<ReportFormat>;
  overall_score: Numeric;
  content: JsonObject;
  used_fallback: Defaulted<boolean>;
  /** Who wrote it: an AI provider or the local analyst (0023). */
  provider: string | null;
  generated_at: GeneratedTimestamp;
}

export interface StudyReportsTable {
  id: Generated<string>;
  organization_id: string;
  study_id: string;
  agent_job_id: string | null;
  session_count: number;
  study_score: Numeric | null;
  content: JsonObject;
  used_fallback: Defaulted<boolean>;
  /** Who wrote it: an AI provider or the local analyst (0023). */
  provider: string | null;
  generated_at: GeneratedTimestamp;
}

export interface ProposalsTable {
  id: Generated<string>;
  organization_id: string;
  study_id: string;
  tester_id: string;
  match_score: Numeric;
  match_reasons: Defaulted<string[]>;
  status: Defaulted<ProposalStatus>;
  generated_at: GeneratedTimestamp;
  decided_by: string | null;
  accepted_at: Timestamp | null;
  skipped_at: Timestamp | null;
  skip_reason: string | null;
}

export interface OutreachMessagesTable {
  id: Generated<string>;
  organization_id: string;
  study_id: string;
  tester_id: string;
  proposal_id: string | null;
  recipient_email: string;
  channel: Channel;
  subject: string | null;
  body: string;
  status: Defaulted<OutreachStatus>;
  used_fallback: Defaulted<boolean>;
  generated_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  approved_by: string | null;
  approved_at: Timestamp | null;
  scheduled_send_at: Timestamp | null;
  sent_at: Timestamp | null;
  rejected_by: string | null;
  rejected_at: Timestamp | null;
  rejection_reason: string | null;
  offer_status: OfferStatus | null;
  offer_expires_at: Timestamp | null;
  answered_at: Timestamp | null;
  session_id: string | null;
  /** When the lifecycle reconciler last looked for the open offer's workflow (0043). */
  workflow_checked_at: Timestamp | null;
}

/** A study's segment: one of its countries, with the study's age range (null when it sets none). */
export interface CapacitySegment {
  country: string;
  ageRange: { min: number; max: number } | null;
}

export interface CapacityReviewsTable {
  id: Generated<string>;
  study_id: string;
  requested_count: number;
  available_count: number;
  segment: JsonObject<CapacitySegment>;
  status: Defaulted<CapacityReviewStatus>;
  adjusted_count: number | null;
  note: string | null;
  resolved_by: string | null;
  created_at: GeneratedTimestamp;
  resolved_at: Timestamp | null;
  /** When the study's business was told of a rejection (0030). */
  business_notified_at: Timestamp | null;
}
