import type { Db } from '../../db/connection.ts';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { asSystem } from '../../db/doors.ts';
import { recordApiTokenUse } from '../../db/repositories/api-tokens.ts';
import type { ApiTokenPrincipal } from '../../commands/principal.ts';
import { sha256Hex } from '../../lib/secrets.ts';

/** The spec allows a revoked token to keep working for up to this long (validation caching). */
export const API_TOKEN_CACHE_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Resolves API tokens to principals, remembering each answer (valid or not) for at most 60
 * seconds so a busy integration costs one query a minute. Revocation through this instance is
 * seen at once; other instances see it when their entry expires.
 */
export class ApiTokenVerifier {
  private readonly cache = new BoundedMap<string, { principal: ApiTokenPrincipal | null; until: number }>(
    MAX_ENTRIES,
  );

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  /** `beforeLookup` runs only when the answer is not cached, before the database is asked (it may throw). */
  async verify(secret: string, beforeLookup?: () => Promise<void>): Promise<ApiTokenPrincipal | null> {
    const key = sha256Hex(secret);
    const now = this.now();
    const cached = this.cache.get(key);
    if (cached && cached.until > now.getTime()) return cached.principal;
    await beforeLookup?.();
    const row = await asSystem(this.db, (tx) => recordApiTokenUse(tx, key, now));
    const principal: ApiTokenPrincipal | null = row
      ? {
          kind: 'api_token',
          tokenId: row.id,
          scope: row.scope,
          claims: { sub: row.created_by, role: 'business', organization_id: row.organization_id },
          organizationId: row.organization_id,
          rateLimitKey: `api_token:${row.id}`,
        }
      : null;
    this.cache.set(key, { principal, until: now.getTime() + API_TOKEN_CACHE_MS });
    return principal;
  }

  /** Called on revocation so this instance stops accepting the token immediately. */
  forget(tokenHash: string): void {
    this.cache.delete(tokenHash);
  }
}
