import type { Context, Middleware } from 'koa';
import { ApiError } from '../../lib/errors.ts';
import { refusedValueMessage, type ConstraintColumns } from './constraint-violations.ts';
import { failure } from './envelope.ts';
import type { RequestState } from './state.ts';
import { RETRY_AFTER_SECONDS, unreachableDependency } from '../../clients/unavailable.ts';

/** Statuses that body parsers and the router raise themselves (http-errors), mapped to our messages. */
const FRAMEWORK_ERRORS: Readonly<Record<number, string>> = {
  400: 'Malformed request body: invalid JSON',
  405: 'Method not allowed',
  413: 'Request body too large',
  415: 'Unsupported media type: send application/json',
};

/**
 * The one place errors become responses: ApiErrors keep their status and message, known framework
 * errors get a fixed message, a dependency that could not be reached (the database, Temporal, the
 * rate limiter's store) is 503 naming it, anything else is a plain 500 whose details go only to the log.
 * A browser asking for a page gets the same status and message as an HTML page.
 */
export interface ErrorPages {
  /** Whether this request comes from a person's browser asking for a page. */
  readonly wanted: (ctx: Context) => boolean;
  readonly render: (ctx: Context, status: number, message: string) => void;
}

export function errorHandler(
  pages?: ErrorPages,
  constraintColumns?: ConstraintColumns,
): Middleware<RequestState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const refused = await refusedValueMessage(error, constraintColumns);
      const { status, message, headers } = refused
        ? { status: 422, message: refused, headers: {} }
        : describe(error);
      if (status === 500) ctx.state.log.error({ err: error }, 'request failed');
      // Validation should have refused it: a rule is missing (api/http/constraint-violations.ts).
      else if (refused)
        ctx.state.log.warn({ err: error }, 'the database refused a value validation let through');
      else if (status > 500) ctx.state.log.warn({ err: error }, 'request could not be served');
      else ctx.state.log.debug({ status, message }, 'request refused');
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
      if (pages?.wanted(ctx)) {
        pages.render(ctx, status, message);
        return;
      }
      ctx.status = status;
      ctx.body = failure(message);
    }
  };
}

/** What the JSON parser (bourne, under koa-body) throws for a `__proto__` key: valid JSON it will not read. */
const PROTOTYPE_KEY = 'Object contains forbidden prototype property';

function describe(error: unknown): { status: number; message: string; headers: Record<string, string> } {
  if (error instanceof ApiError)
    return { status: error.status, message: error.message, headers: { ...error.headers } };
  if (error instanceof SyntaxError && error.message === PROTOTYPE_KEY)
    return { status: 422, message: 'body: must not contain the key __proto__', headers: {} };
  const status = frameworkStatus(error);
  if (status !== undefined) {
    const headers: Record<string, string> = {};
    const allow = (error as { headers?: { Allow?: string } }).headers?.Allow;
    if (status === 405 && allow) headers.Allow = allow;
    return { status, message: FRAMEWORK_ERRORS[status] ?? 'Bad request', headers };
  }
  const dependency = unreachableDependency(error);
  if (dependency)
    return {
      status: 503,
      message: `Unavailable: ${dependency} unreachable, try again later`,
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    };
  return { status: 500, message: 'Internal server error', headers: {} };
}

function frameworkStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, expose } = error as { status?: unknown; expose?: unknown };
  if (typeof status === 'number' && expose === true && status >= 400 && status < 500) return status;
  // koa-body's JSON parser throws a bare SyntaxError carrying status 400 but no `expose` flag.
  if (error instanceof SyntaxError && status === 400) return 400;
  return undefined;
}
