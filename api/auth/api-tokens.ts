import type { Tx } from '../../db/doors.ts';
import type { ApiTokenScope } from '../../db/schema-auth.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

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
  const row = await tx
    .insertInto('api_tokens')
    .values({
      organization_id: token.organizationId,
      created_by: token.createdBy,
      name: token.name,
      scope: token.scope,
      token_hash: sha256Hex(secret),
      token_prefix: secret.slice(0, 12),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { row, secret };
}

/** One page of the organization's tokens, newest first, and how many it has in all. */
export async function listApiTokens(
  tx: Tx,
  organizationId: string,
  page: { readonly limit: number; readonly offset: number },
) {
  const ofOrganization = tx.selectFrom('api_tokens').where('organization_id', '=', organizationId);
  const rows = await ofOrganization
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { total } = await ofOrganization
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  return { rows, total: Number(total) };
}

export function revokeApiToken(tx: Tx, id: string, organizationId: string, now: Date) {
  return tx
    .updateTable('api_tokens')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The live token with this secret, recording its use. A token acts as the owner who issued it, so
 * it is live only while that user is still an owner of the organization and not suspended: a
 * removed or demoted owner's tokens stop working with them.
 */
export async function findLiveApiToken(tx: Tx, secret: string, now: Date) {
  return tx
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('token_hash', '=', sha256Hex(secret))
    .where('revoked_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('organization_memberships')
          .innerJoin('users', 'users.id', 'organization_memberships.user_id')
          .select('organization_memberships.user_id')
          .whereRef('organization_memberships.organization_id', '=', 'api_tokens.organization_id')
          .whereRef('organization_memberships.user_id', '=', 'api_tokens.created_by')
          .where('organization_memberships.member_role', '=', 'owner')
          .where('users.status', '<>', 'suspended'),
      ),
    )
    .returning(['id', 'organization_id', 'created_by', 'scope'])
    .executeTakeFirst();
}
