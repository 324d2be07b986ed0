import type { Claims } from '../db/doors.ts';
import type { ApiTokenScope } from '../lib/domain.ts';

interface PrincipalBase {
  /** The claims handed to the RLS door for every query made on the caller's behalf. */
  readonly claims: Claims;
  readonly organizationId: string | null;
  /** What the rate limiter counts requests against. */
  readonly rateLimitKey: string;
}

/** A person in a browser or a client holding their session JWT. */
export interface SessionPrincipal extends PrincipalBase {
  readonly kind: 'session';
}

/** An organization's API token: acts as the business user who issued it, within its scope. */
export interface ApiTokenPrincipal extends PrincipalBase {
  readonly kind: 'api_token';
  readonly tokenId: string;
  readonly scope: ApiTokenScope;
}

/** The extension during a test: a tester bound to one session and four endpoints. */
export interface TestTokenPrincipal extends PrincipalBase {
  readonly kind: 'test_token';
  readonly sessionId: string;
}

/** Who is calling, once a credential has been verified. */
export type Principal = SessionPrincipal | ApiTokenPrincipal | TestTokenPrincipal;
