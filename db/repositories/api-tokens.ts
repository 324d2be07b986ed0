import type { Insertable, Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { ApiTokensTable } from '../schema-auth.ts';

// Organizations' API tokens (0011). A token is found by the SHA-256 of its secret; the caller hashes.

export type ApiTokenRow = Selectable<ApiTokensTable>;
export type NewApiTokenRow = Insertable<ApiTokensTable>;

export function insertApiToken(tx: Tx, token: NewApiTokenRow): Promise<ApiTokenRow> {
  return tx.insertInto('api_tokens').values(token).returningAll().executeTakeFirstOrThrow();
}

/** One page of the organization's tokens, newest first, and how many it has in all. */
export async function listApiTokens(
  tx: Tx,
  organizationId: string,
  page: { readonly limit: number; readonly offset: number },
): Promise<{ rows: ApiTokenRow[]; total: number }> {
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

/** Revokes the organization's token (an earlier revocation's time is kept); undefined when unknown. */
export function revokeApiToken(
  tx: Tx,
  id: string,
  organizationId: string,
  now: Date,
): Promise<ApiTokenRow | undefined> {
  return tx
    .updateTable('api_tokens')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The live token with this hash, recording its use. A token acts as the owner who issued it, so
 * it is live only while that user is still an owner of the organization and not suspended: a
 * removed or demoted owner's tokens stop working with them.
 */
export function recordApiTokenUse(tx: Tx, tokenHash: string, now: Date) {
  return tx
    .updateTable('api_tokens')
    .set({ last_used_at: now })
    .where('token_hash', '=', tokenHash)
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
