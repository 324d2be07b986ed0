import type { Tx } from '../../db/doors.ts';
import { insertApiToken } from '../../db/repositories/api-tokens.ts';
import type { ApiTokenScope } from '../../lib/domain.ts';
import { randomSecret, sha256Hex } from '../../lib/secrets.ts';

/** Marks a bearer credential as an API token rather than a session JWT (which starts with "ey"). */
export const API_TOKEN_PREFIX = 'uat_';

export const isApiToken = (bearer: string) => bearer.startsWith(API_TOKEN_PREFIX);

export interface NewApiToken {
  readonly organizationId: string;
  readonly createdBy: string;
  readonly name: string;
  readonly scope: ApiTokenScope;
}

export async function issueApiToken(tx: Tx, token: NewApiToken, now: Date) {
  const secret = `${API_TOKEN_PREFIX}${randomSecret()}`;
  const row = await insertApiToken(tx, {
    organization_id: token.organizationId,
    created_by: token.createdBy,
    name: token.name,
    scope: token.scope,
    token_hash: sha256Hex(secret),
    token_prefix: secret.slice(0, 12),
    created_at: now,
  });
  return { row, secret };
}
