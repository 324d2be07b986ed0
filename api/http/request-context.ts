import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { Principal } from '../../commands/principal.ts';
import type { RequestState } from './state.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * A request's state. Its child logger (carrying the request's id) is made when first used (a
 * warning, an error): most requests only write their one line. The getter lives on the class, so
 * every request's state has the same shape (an accessor defined on each object would give each its
 * own, and every later link's reads of it would go the slow way).
 */
class State implements RequestState {
  principal: Principal | null = null;
  authFailure: string | null = null;
  admitWebhookDelivery?: () => Promise<void>;
  #log: Logger | undefined;

  constructor(
    private readonly logger: Logger,
    readonly requestId: string,
    readonly receivedAt: number,
  ) {}

  get log(): Logger {
    return (this.#log ??= this.logger.child({ requestId: this.requestId }));
  }

  set log(log: Logger) {
    this.#log = log;
  }
}

/**
 * Gives every request an id (the caller's X-Request-Id when well-formed), a child logger carrying
 * it, and one log line when it ends.
 */
export function requestContext(logger: Logger): Middleware<RequestState> {
  return async (ctx, next) => {
    const receivedAt = performance.now();
    const offered = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state = new State(logger, requestId, receivedAt);
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      logger.info(
        {
          requestId,
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round(performance.now() - receivedAt),
        },
        'request',
      );
    }
  };
}
