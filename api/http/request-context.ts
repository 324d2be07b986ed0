import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { RequestState } from './state.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id when well-formed), a child logger carrying
 * it, and one log line when it ends.
 */
export function requestContext(logger: Logger): Middleware<RequestState> {
  return async (ctx, next) => {
    ctx.state.receivedAt = performance.now();
    const offered = ctx.get('X-Request-Id');
    const requestId = REQUEST_ID.test(offered) ? offered : randomUUID();
    ctx.state.requestId = requestId;
    // Made when first used (a warning, an error): most requests only write their one line below.
    let child: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', {
      get: () => (child ??= logger.child({ requestId })),
      configurable: true,
      enumerable: true,
    });
    ctx.state.principal = null;
    ctx.state.authFailure = null;
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
          ms: Math.round(performance.now() - ctx.state.receivedAt),
        },
        'request',
      );
    }
  };
}
