import type { Generated } from 'kysely';
import type { Channel, Device, NotificationStatus, PointSignal } from '../lib/domain.ts';
import type {
  Defaulted,
  Identity,
  DefaultedJsonArray,
  DefaultedJsonObject,
  GeneratedTimestamp,
  Numeric,
  Timestamp,
} from './schema.ts';

// Kysely types of db/migrations/0009_engagement.sql; listed in `Database` in db/schema.ts.

export interface BadgesTable {
  id: Generated<string>;
  code: string;
  name: string;
  description: string;
  icon_url: string;
  threshold_points: number;
  created_at: GeneratedTimestamp;
}

export interface AwardedBadgesTable {
  tester_id: string;
  badge_id: string;
  session_id: string | null;
  awarded_at: GeneratedTimestamp;
}

export interface PointLedgerTable {
  id: Identity;
  tester_id: string;
  session_id: string | null;
  signal: PointSignal;
  points: number;
  note: string | null;
  created_at: GeneratedTimestamp;
}

export interface CommunityStatsSnapshotsTable {
  id: Identity;
  total_testers: number;
  active_testers: number;
  total_studies_completed: number;
  total_sessions_completed: number;
  avg_session_rating: Numeric | null;
  top_countries: DefaultedJsonArray<{ country: string; testerCount: number }>;
  device_breakdown: DefaultedJsonObject<Partial<Record<Device, number>>>;
  avg_compensation_currency: string | null;
  avg_compensation_amount: Numeric | null;
  cached_at: GeneratedTimestamp;
  next_refresh_at: Timestamp;
}

export interface NotificationOutboxTable {
  id: Generated<string>;
  channel: Channel;
  recipient: string;
  user_id: string | null;
  kind: string;
  subject: string | null;
  body: string;
  payload: DefaultedJsonObject;
  dedupe_key: string | null;
  status: Defaulted<NotificationStatus>;
  attempts: Defaulted<number>;
  available_at: GeneratedTimestamp;
  sent_at: Timestamp | null;
  last_error: string | null;
  created_at: GeneratedTimestamp;
}

/** db/migrations/0034_gamification.sql: each confirmed session's evaluation, its answer as first given. */
export interface GamificationEvaluationsTable {
  session_id: string;
  tester_id: string;
  points_awarded: number;
  result: string;
  evaluated_at: GeneratedTimestamp;
}
