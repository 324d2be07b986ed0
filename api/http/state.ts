import type { Logger } from 'pino';
import type { Principal } from '../../commands/principal.ts';

/** What the middleware chain puts on `ctx.state` for the later links. */
export interface RequestState {
  requestId: string;
  /** `performance.now()` when the request arrived: limits such as the instant audit's 10 s count from it. */
  receivedAt: number;
  log: Logger;
  /** The authenticated caller, or null for an anonymous request. */
  principal: Principal | null;
  /** Why a presented credential was refused; routes that need a caller answer 401 with it. */
  authFailure: string | null;
  /**
   * On /api/webhooks/* only (rate-limit.ts): a route calls it once the delivery's signature is
   * verified, so the route's budget counts only verified deliveries.
   */
  admitWebhookDelivery?: () => Promise<void>;
}
