import { Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor } from '@temporalio/client';

/**
 * The API's connection to Temporal. Lazy: the API starts and answers (its health 503) while the
 * server is still down. A call the server cannot take is retried for about 6 s (7 attempts,
 * backing off from 170 ms) rather than the client's default of about 20 s: the request then
 * answers 503 while its caller is still waiting, and a server restarting within seconds is still
 * ridden out.
 */
export function connectApiToTemporal(address: string): Connection {
  return Connection.lazy({
    address,
    interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 7 }))],
  });
}
