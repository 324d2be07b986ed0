import type { Db } from '../../db/connection.ts';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { asSystem } from '../../db/doors.ts';
import { isFamilyRevoked } from '../../db/repositories/refresh-tokens.ts';

/** Like API tokens, an ended login may keep its session JWT working this long on other instances. */
export const REVOKED_LOGIN_CACHE_MS = 60_000;
const MAX_ENTRIES = 10_000;

/**
 * Whether the login a session JWT belongs to has ended. Session JWTs are otherwise stateless for
 * 24 hours; this makes logout, reuse detection and password resets end them too, at the cost of
 * one query per login per minute.
 */
export class RevokedLogins {
  private readonly cache = new BoundedMap<string, { revoked: boolean; until: number }>(MAX_ENTRIES);

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  async isRevoked(loginId: string): Promise<boolean> {
    const now = this.now().getTime();
    const cached = this.cache.get(loginId);
    if (cached && cached.until > now) return cached.revoked;
    const revoked = await asSystem(this.db, (tx) => isFamilyRevoked(tx, loginId));
    // A revoked login never comes back, so that answer is kept for good.
    this.cache.set(loginId, { revoked, until: revoked ? Infinity : now + REVOKED_LOGIN_CACHE_MS });
    return revoked;
  }

  /** This instance ended the login: refuse its JWTs at once. */
  markRevoked(loginId: string): void {
    this.cache.set(loginId, { revoked: true, until: Infinity });
  }
}
