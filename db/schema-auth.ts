import type { ColumnType, Generated } from 'kysely';
import type { ApiTokenScope, OneTimeTokenPurpose } from '../lib/domain.ts';

// Kysely types of the auth tables (db/migrations/0011_auth.sql); merged into `Database` in db/schema.ts.

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface RefreshTokensTable {
  id: Generated<string>;
  user_id: string;
  family_id: string;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  family_expires_at: Timestamp;
  rotated_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface ApiTokensTable {
  id: Generated<string>;
  organization_id: string;
  created_by: string;
  name: string;
  scope: ApiTokenScope;
  token_hash: string;
  token_prefix: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface OneTimeTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: OneTimeTokenPurpose;
  token_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OAuthStatesTable {
  state_hash: string;
  provider: string;
  code_verifier: string;
  signup_role: ColumnType<'business' | 'tester', 'business' | 'tester' | undefined, 'business' | 'tester'>;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface UserIdentitiesTable {
  id: Generated<string>;
  user_id: string;
  provider: string;
  subject: string;
  email: string | null;
  created_at: DefaultTimestamp;
  updated_at: DefaultTimestamp;
}

export interface LoginFailuresTable {
  email: string;
  failure_count: number;
  last_failure_at: Timestamp;
  locked_until: NullableTimestamp;
}

export interface AuthTables {
  refresh_tokens: RefreshTokensTable;
  api_tokens: ApiTokensTable;
  one_time_tokens: OneTimeTokensTable;
  oauth_states: OAuthStatesTable;
  user_identities: UserIdentitiesTable;
  login_failures: LoginFailuresTable;
}
