import {
  isGrpcServiceError,
  ServiceError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';

/** Seconds a client is asked to wait after a 503 for something not there yet or unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/** What a request needed and could not reach: its answer is 503, never 500. */
type Dependency = 'database' | 'temporal' | 'rate limit store';

/**
 * SQLSTATEs of a server that is gone or going: connection exceptions (class 08), an administrator
 * or crash shutdown, a server still starting, and no connection slot left.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket errors of a dependency that does not answer; the driver and the clients pass them on. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * node-postgres reports a lost or never-made connection with these messages and no code: a
 * connection closed under a query, or the pool's connection timeout.
 */
const PG_CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/**
 * gRPC's DEADLINE_EXCEEDED and UNAVAILABLE: the server away or too slow. Not RESOURCE_EXHAUSTED,
 * which also reports a message too large, a bug no retry mends.
 */
const TEMPORAL_UNAVAILABLE = new Set([4, 14]);

/** ioredis's errors for a connection lost under a command or already closed (the rate limiter's store). */
const REDIS_CONNECTION_MESSAGES = [/^Connection is closed\.$/, /^Command aborted due to connection close$/];

/** The dependency an error says was unreachable, or undefined for any other error. */
export function unreachableDependency(error: unknown): Dependency | undefined {
  if (!(error instanceof Error)) return undefined;
  if (isTemporalUnavailable(error)) return 'temporal';
  // ioredis gives up on a command after its retries with this error (the rate limiter's store).
  if (error.name === 'MaxRetriesPerRequestError') return 'rate limit store';
  if (REDIS_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'rate limit store';
  const { code } = error as { code?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || SOCKET_CODES.has(code)) return 'database';
  }
  if (PG_CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message))) return 'database';
  return undefined;
}

function isTemporalUnavailable(error: Error): boolean {
  // An update that the server did not accept within the call's deadline, the server being away.
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return true;
  const grpc = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(grpc) && TEMPORAL_UNAVAILABLE.has(grpc.code);
}
