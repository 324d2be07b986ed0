import { decodeJwt } from 'jose';
import { BoundedMap } from '../../lib/bounded-map.ts';
import { InvalidSessionToken, verifySessionJwt, type SessionClaims } from './session-jwt.ts';

const MAX_ENTRIES = 10_000;

interface Verified {
  readonly claims: SessionClaims;
  /** The token's `exp` in whole seconds (a token without one never expires, as jose reads it). */
  readonly expiresAt: number;
}

/**
 * Session JWTs this instance has verified, so a browser's next requests with the same token skip
 * the signature check: the HMAC through Web Crypto was the largest cost of an authenticated read
 * (a job on libuv's thread pool each time; `npm run bench -- stack-cost`). Keyed by the token's
 * exact text, so only what once verified is ever answered from here, and its expiry is checked on
 * every use exactly as jose checks it (expired once `exp` is at or before the current whole
 * second). Only valid tokens are kept; whether the login has ended is still asked per request
 * (RevokedLogins). Bounded: the oldest entry goes first.
 */
export class VerifiedSessionTokens {
  private readonly verified = new BoundedMap<string, Verified>(MAX_ENTRIES);

  constructor(
    private readonly secret: string,
    private readonly verify: typeof verifySessionJwt = verifySessionJwt,
  ) {}

  async claimsOf(token: string, now: Date): Promise<SessionClaims> {
    const known = this.verified.get(token);
    if (known) {
      if (known.expiresAt > Math.floor(now.getTime() / 1000)) return known.claims;
      this.verified.delete(token);
      throw new InvalidSessionToken('Session token expired');
    }
    // Frozen: every later request with this token is handed the same object.
    const claims = Object.freeze(await this.verify(token, this.secret, now));
    const { exp, nbf } = decodeJwt(token);
    // A not-before time is judged against each request's clock: such a token is checked each time.
    if (nbf !== undefined) return claims;
    this.verified.set(token, { claims, expiresAt: exp ?? Infinity });
    return claims;
  }
}
