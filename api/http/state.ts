import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.ts';

/** What the middleware chain puts on `ctx.state` for the later links. */
export interface RequestState {
  requestId: string;
  log: Logger;
  /** The authenticated caller, or null for an anonymous request. */
  principal: Principal | null;
  /** Why a presented credential was refused; routes that need a caller answer 401 with it. */
  authFailure: string | null;
}
