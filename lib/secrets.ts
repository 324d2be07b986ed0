import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe secret of `bytes` random bytes from the operating system's CSPRNG. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Secrets we mint carry 256 bits of entropy, so a fast hash is enough to store them: nothing
 * about them can be guessed, unlike passwords.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two strings in time independent of where they differ (lengths may leak; contents do not). */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
