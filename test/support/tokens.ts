import type { Claims } from '../../db/doors.ts';
import { signSessionJwt } from '../../api/auth/session-jwt.ts';
import { testConfig } from './config.ts';

export function sessionToken(
  claims: Claims,
  now: Date = new Date(),
  lifetimeSeconds?: number,
): Promise<string> {
  return signSessionJwt(claims, testConfig().auth.jwtSecret, now, lifetimeSeconds);
}
