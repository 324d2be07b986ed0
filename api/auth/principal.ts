import type { Claims } from '../../db/doors.ts';

/** Who is calling, once a credential has been verified. */
export interface Principal {
  readonly kind: 'session';
  /** The claims handed to the RLS door for every query made on the caller's behalf. */
  readonly claims: Claims;
  readonly organizationId: string | null;
  /** What the rate limiter counts requests against. */
  readonly rateLimitKey: string;
}
