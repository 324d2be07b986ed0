import { createHash, randomBytes } from 'node:crypto';

/** Spec: a test token lives 24 hours and is 48 hex characters. */
export const TEST_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface MintedTestToken {
  /** Handed to the tester once; never stored. */
  readonly token: string;
  /** What the sessions table keeps (SHA-256, hex). */
  readonly hash: string;
  readonly expiresAt: Date;
}

/** A new test token: 192 bits from the CSPRNG, as 48 hex characters, with its hash and expiry. */
export function mintTestToken(now: Date): MintedTestToken {
  const token = randomBytes(24).toString('hex');
  return {
    token,
    hash: createHash('sha256').update(token).digest('hex'),
    expiresAt: new Date(now.getTime() + TEST_TOKEN_LIFETIME_MS),
  };
}
