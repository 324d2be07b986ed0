import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/doors.ts';
import {
  insertRefreshToken,
  lockRefreshToken,
  markRefreshTokenRotated,
  refreshFamilyOf,
  revokeRefreshFamily,
} from '../../db/repositories/refresh-tokens.ts';
import { randomSecret, sha256Hex } from '../../lib/secrets.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sliding: a refresh token unused for 7 days has expired (DESIGN.md: both spec values hold). */
export const REFRESH_IDLE_MS = 7 * DAY_MS;
/** Absolute: no family outlives 30 days after its login. */
export const REFRESH_ABSOLUTE_MS = 30 * DAY_MS;

export class RefreshRefused extends Error {
  override readonly name = 'RefreshRefused';

  constructor(
    message: string,
    /** Set when the refusal revoked the token's whole login. */
    readonly revokedFamilyId?: string,
  ) {
    super(message);
  }
}

export interface IssuedRefreshToken {
  readonly secret: string;
  readonly userId: string;
  /** The login this token descends from; session JWTs carry it as `sid`. */
  readonly familyId: string;
  readonly expiresAt: Date;
}

async function insertToken(
  tx: Tx,
  userId: string,
  familyId: string,
  familyExpiresAt: Date,
  now: Date,
): Promise<IssuedRefreshToken> {
  const secret = randomSecret();
  const expiresAt = new Date(Math.min(now.getTime() + REFRESH_IDLE_MS, familyExpiresAt.getTime()));
  await insertRefreshToken(tx, {
    user_id: userId,
    family_id: familyId,
    token_hash: sha256Hex(secret),
    created_at: now,
    expires_at: expiresAt,
    family_expires_at: familyExpiresAt,
  });
  return { secret, userId, familyId, expiresAt };
}

/** A login starts a new family. */
export function startRefreshFamily(tx: Tx, userId: string, now: Date): Promise<IssuedRefreshToken> {
  return insertToken(tx, userId, randomUUID(), new Date(now.getTime() + REFRESH_ABSOLUTE_MS), now);
}

/**
 * Exchanges a refresh token for its successor. A token that was already rotated is a stolen or
 * replayed copy: the whole family is revoked, so neither the thief nor the victim keeps a session.
 */
export async function rotateRefreshToken(tx: Tx, secret: string, now: Date): Promise<IssuedRefreshToken> {
  const token = await lockRefreshToken(tx, sha256Hex(secret));
  if (!token || token.revoked_at) throw new RefreshRefused('Invalid refresh token');
  if (token.rotated_at) {
    await revokeRefreshFamily(tx, token.family_id, now);
    throw new RefreshRefused(
      'Refresh token reuse detected: every session of this login is revoked',
      token.family_id,
    );
  }
  if (token.expires_at <= now) throw new RefreshRefused('Refresh token expired');
  await markRefreshTokenRotated(tx, token.id, now);
  return insertToken(tx, token.user_id, token.family_id, token.family_expires_at, now);
}

/** Logout: revokes the family the presented token belongs to and returns it (unknown tokens are ignored). */
export async function revokeFamilyOf(tx: Tx, secret: string, now: Date): Promise<string | undefined> {
  const familyId = await refreshFamilyOf(tx, sha256Hex(secret));
  if (familyId) await revokeRefreshFamily(tx, familyId, now);
  return familyId;
}
