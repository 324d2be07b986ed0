import { asUser, type Tx } from '../../db/doors.ts';
import { listApiTokens, revokeApiToken, type ApiTokenRow } from '../../db/repositories/api-tokens.ts';
import { memberRoleOf } from '../../db/repositories/organizations.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { issueApiToken } from './api-tokens.ts';
import type { z } from 'zod';
import type { createApiTokenBody } from './api-token.schema.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';

export const apiTokenViewOf = (row: ApiTokenRow) => ({
  tokenId: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.token_prefix,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
  revokedAt: row.revoked_at?.toISOString() ?? null,
});

export type ApiTokenView = ReturnType<typeof apiTokenViewOf>;

/** Token management is for the organization's owners (row-level security says the same). */
async function ownedOrganization(tx: Tx, principal: Principal): Promise<string> {
  const organizationId = principal.organizationId;
  if (!organizationId || (await memberRoleOf(tx, organizationId, principal.claims.sub)) !== 'owner') {
    throw forbidden("Only the organization's owners manage its API tokens");
  }
  return organizationId;
}

/** Issues a token for the caller's organization; its secret is in the answer and nowhere else. */
export async function createApiToken(
  deps: Pick<CommandContext, 'db' | 'now'>,
  principal: Principal,
  body: z.output<typeof createApiTokenBody>,
) {
  const { row, secret } = await asUser(deps.db, principal.claims, async (tx) =>
    issueApiToken(
      tx,
      {
        organizationId: await ownedOrganization(tx, principal),
        createdBy: principal.claims.sub,
        name: body.name,
        scope: body.scope,
      },
      deps.now(),
    ),
  );
  return { ...apiTokenViewOf(row), token: secret };
}

/** The organization's tokens, newest first, without their secrets. */
export async function listOrganizationApiTokens(
  deps: Pick<CommandContext, 'db'>,
  principal: Principal,
  page: { readonly limit: number; readonly offset: number },
) {
  const { rows, total } = await asUser(deps.db, principal.claims, async (tx) =>
    listApiTokens(tx, await ownedOrganization(tx, principal), page),
  );
  return { tokens: rows.map(apiTokenViewOf), total };
}

/**
 * Revokes one of the organization's tokens. The caller makes its credential cache forget
 * `tokenHash` at once (other instances stop accepting it within 60 s).
 */
export async function revokeOrganizationApiToken(
  deps: Pick<CommandContext, 'db' | 'now'>,
  principal: Principal,
  tokenId: string,
) {
  const row = await asUser(deps.db, principal.claims, async (tx) =>
    revokeApiToken(tx, tokenId, await ownedOrganization(tx, principal), deps.now()),
  );
  if (!row) throw notFound('API token');
  return { tokenId: row.id, revokedAt: row.revoked_at!.toISOString(), tokenHash: row.token_hash };
}
