// One route family under load with autocannon: each caller an autocannon instance of one
// connection sending its own requests at its own rate, the callers' starts spread over the first
// second (autocannon sends a second's share at the start of each second; callers in step would
// arrive as one burst, which real ones do not). Latencies are taken from every answer of every
// caller, so the family's percentiles are over all of them.
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { percentile } from '../support/stats.ts';

export interface LoadRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

export interface Family<Caller> {
  readonly url: string;
  readonly callers: readonly Caller[];
  /** Requests each caller sends in all. */
  readonly perCaller: number;
  /** Requests a second each caller sends (a whole number); none: as fast as they are answered. */
  readonly perSecond?: number;
  /** The caller's `index`th request (from 0). */
  request(caller: Caller, index: number): LoadRequest;
}

export interface FamilyResult {
  /** Requests answered. */
  readonly answered: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Answers by status code. */
  readonly statuses: Record<string, number>;
  readonly serverErrors: number;
  /** Connection errors and timeouts: requests that got no answer. */
  readonly unanswered: number;
  /** Answers by status code, per caller (in the order of `callers`). */
  readonly perCaller: readonly Record<string, number>[];
}

function callerLoad<Caller>(
  family: Family<Caller>,
  caller: Caller,
  tally: Record<string, number>,
  latencies: number[],
) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    let sent = 0;
    const instance = autocannon(
      {
        url: family.url,
        connections: 1,
        amount: family.perCaller,
        ...(family.perSecond ? { connectionRate: family.perSecond } : {}),
        timeout: 30,
        requests: [
          {
            setupRequest: (defaults) => {
              const { method, path, headers = {}, body } = family.request(caller, sent++);
              return {
                ...defaults,
                method,
                path,
                headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
                ...(body === undefined ? {} : { body }),
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error as Error) : resolve(result)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      tally[statusCode] = (tally[statusCode] ?? 0) + 1;
      latencies.push(responseTime);
    });
  });
}

export async function drive<Caller>(family: Family<Caller>): Promise<FamilyResult> {
  const perCaller: Record<string, number>[] = family.callers.map(() => ({}));
  const latencies: number[] = [];
  const spreadMs = 1000 / family.callers.length;
  const results = await Promise.all(
    family.callers.map(async (caller, i) => {
      await sleep(family.perSecond ? i * spreadMs : 0);
      return callerLoad(family, caller, perCaller[i]!, latencies);
    }),
  );
  const statuses: Record<string, number> = {};
  for (const tally of perCaller) {
    for (const [status, count] of Object.entries(tally)) statuses[status] = (statuses[status] ?? 0) + count;
  }
  return {
    answered: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: Math.max(...latencies),
    statuses,
    serverErrors: Object.entries(statuses)
      .filter(([status]) => status.startsWith('5'))
      .reduce((sum, [, count]) => sum + count, 0),
    // autocannon's errors count its timeouts too.
    unanswered: results.reduce((sum, result) => sum + result.errors, 0),
    perCaller,
  };
}
