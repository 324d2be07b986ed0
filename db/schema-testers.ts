import type { ColumnType, Generated } from 'kysely';
import type {
  AccessNeed,
  AssistiveTechnology,
  Device,
  PayoutAccountStatus,
  TesterStatus,
} from '../lib/domain.ts';
import type { Defaulted, GeneratedTimestamp, Timestamp } from './schema.ts';

// Kysely types of db/migrations/0004_testers.sql; listed in `Database` in db/schema.ts.

export interface QuizzesTable {
  id: Generated<string>;
  version: number;
  passing_score: number;
  published_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface QuizOption {
  id: string;
  text: string;
}

export interface QuizQuestionsTable {
  id: Generated<string>;
  quiz_id: string;
  position: number;
  text: string;
  type: Defaulted<'multiple_choice'>;
  /** jsonb: written as `JSON.stringify(options)`. */
  options: ColumnType<QuizOption[], string, string>;
  correct_option_id: string;
  points: Defaulted<number>;
}

export interface TesterProfilesTable {
  user_id: string;
  /** Null until the tester fills in the profile (0031). */
  country: string | null;
  birth_year: number | null;
  devices: Defaulted<Device[]>;
  languages: Defaulted<string[]>;
  assistive_technologies: Defaulted<AssistiveTechnology[]>;
  access_needs: Defaulted<AccessNeed[]>;
  status: Defaulted<TesterStatus>;
  quiz_id: string | null;
  quiz_score: number | null;
  quiz_passed: boolean | null;
  quiz_completed_at: Timestamp | null;
  messaging_chat_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** An admin's approval, which qualifies a tester as a passed quiz does (0032). */
  approved_by: string | null;
  approved_at: Timestamp | null;
  /** Generated (0032): the quiz passed or an admin's approval. */
  qualified: ColumnType<boolean, never, never>;
}

/** db/migrations/0032_tester_status.sql: each status change an admin made, with its reason. */
export interface TesterStatusChangesTable {
  id: Generated<string>;
  tester_id: string;
  from_status: TesterStatus;
  to_status: TesterStatus;
  reason: string;
  changed_by: string | null;
  changed_at: GeneratedTimestamp;
}

export interface PayoutAccountsTable {
  id: Generated<string>;
  tester_id: string;
  provider_account_id: string;
  status: Defaulted<PayoutAccountStatus>;
  charges_enabled: Defaulted<boolean>;
  payouts_enabled: Defaulted<boolean>;
  details_submitted: Defaulted<boolean>;
  requirements_currently_due: Defaulted<string[]>;
  requirements_eventually_due: Defaulted<string[]>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** The provider's `created` time of the last account.updated applied (0024); older ones are skipped. */
  last_event_created_at: Timestamp | null;
}

/** db/migrations/0031_tester_joining.sql: each submitted attempt at the quiz. */
export interface QuizAttemptsTable {
  id: Generated<string>;
  tester_id: string;
  quiz_id: string | null;
  quiz_version: number;
  /** jsonb `[{questionId, optionId}]`: written as `JSON.stringify(answers)`. */
  answers: ColumnType<QuizAnswer[], string, string>;
  score: number;
  passed: boolean;
  created_at: GeneratedTimestamp;
}

export interface QuizAnswer {
  questionId: string;
  optionId: string;
}
