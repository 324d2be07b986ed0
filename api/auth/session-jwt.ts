import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { Claims } from '../../db/doors.ts';
import { USER_ROLES } from '../../lib/domain.ts';

export const SESSION_JWT_LIFETIME_SECONDS = 24 * 60 * 60;
const ALGORITHM = 'HS256';

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(USER_ROLES),
  organization_id: z.uuid().nullable().optional(),
  sid: z.uuid().optional(),
});

/** The verified claims; `sid` names the login (refresh family) a browser session belongs to. */
export type SessionClaims = Claims & { readonly sid?: string };

export class InvalidSessionToken extends Error {
  override readonly name = 'InvalidSessionToken';
}

const keyOf = (secret: string) => new TextEncoder().encode(secret);

export async function signSessionJwt(
  claims: Claims,
  secret: string,
  now: Date = new Date(),
  lifetimeSeconds = SESSION_JWT_LIFETIME_SECONDS,
  loginId?: string,
): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    role: claims.role,
    organization_id: claims.organization_id ?? null,
    ...(loginId ? { sid: loginId } : {}),
  })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(claims.sub)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .sign(keyOf(secret));
}

/** Verifies signature, algorithm and expiry, then the claim shapes; throws InvalidSessionToken. */
export async function verifySessionJwt(
  token: string,
  secret: string,
  now: Date = new Date(),
): Promise<SessionClaims> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, keyOf(secret), { algorithms: [ALGORITHM], currentDate: now }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw new InvalidSessionToken('Session token expired');
    throw new InvalidSessionToken('Invalid session token');
  }
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) throw new InvalidSessionToken('Invalid session token claims');
  return claims.data;
}
