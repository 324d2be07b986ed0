// The load the replicas and soak benchmarks run through the cluster's proxy: clients that time
// each request, retry as real ones do, and the steady load of the spec's tiers (200 recording
// sessions, pro-tier reads, free-tier callers asking beyond their limit).
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENTS_PER_BATCH, type BusinessCaller, type RecordingLane } from '../load/fixtures.ts';

export const INGESTION_SESSIONS = 200;
const BATCH_EVERY_MS = 5_000;
const RETRIES = 8;

export interface Sample {
  readonly family: string;
  readonly sentAt: number;
  readonly ms: number;
  readonly status: number;
  readonly resetSeconds?: number;
}

/** One request, timed; status 0 when it got no answer. */
export async function send(
  url: string,
  family: string,
  samples: Sample[],
  init: { method: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Sample> {
  const sentAt = Date.now();
  const t0 = performance.now();
  let status = 0;
  let resetSeconds: number | undefined;
  try {
    const response = await fetch(`${url}${init.path}`, {
      method: init.method,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      ...(init.body ? { body: init.body } : {}),
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    status = response.status;
    const reset = response.headers.get('ratelimit-reset');
    if (reset !== null) resetSeconds = Number(reset);
  } catch {
    // No answer (the connection died, or the timeout): status 0.
  }
  const sample = {
    family,
    sentAt,
    ms: performance.now() - t0,
    status,
    ...(resetSeconds === undefined ? {} : { resetSeconds }),
  };
  samples.push(sample);
  return sample;
}

/** Sends until answered below 500 (a real client's retries), at most RETRIES times; the last answer. */
export async function sendWithRetries(
  url: string,
  family: string,
  samples: Sample[],
  init: Parameters<typeof send>[3],
): Promise<Sample> {
  let last: Sample | undefined;
  for (let attempt = 0; attempt < RETRIES; attempt += 1) {
    last = await send(url, family, samples, init);
    if (last.status !== 0 && last.status < 500) return last;
    await sleep(500 * (attempt + 1));
  }
  return last!;
}

/** Runs `tick(i)` every `everyMs` until `until`, without waiting for one tick to end before the next. */
export async function every(
  everyMs: number,
  until: number,
  tick: (index: number) => Promise<void>,
): Promise<void> {
  const running: Promise<void>[] = [];
  for (let index = 0; Date.now() < until; index += 1) {
    running.push(tick(index));
    await sleep(everyMs);
  }
  await Promise.all(running);
}

export interface SteadyCallers {
  readonly lanes: readonly RecordingLane[];
  readonly readers: readonly BusinessCaller[];
  readonly limited: readonly BusinessCaller[];
  /** When the run began (the events' times count from it) and when it ends. */
  readonly start: number;
  readonly until: number;
}

/**
 * 200 recording sessions sending a batch of events every 5 s each (retried until answered), pro
 * readers 4 a second each, and free-tier callers 3 a second each (180 a minute against 120), until
 * `until`. `acknowledged`: the events an API answered 200 for.
 */
export function steadyLoad(url: string, samples: Sample[], callers: SteadyCallers) {
  const { lanes, readers, limited, start, until } = callers;
  const acknowledged: { sessionId: string; at: string }[] = [];
  // 200 recording sessions, a batch of events from each every 5 s (40 a second in all).
  const ingestion = every(BATCH_EVERY_MS / INGESTION_SESSIONS, until, async (index) => {
    const lane = lanes[index % lanes.length]!;
    const batch = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
      eventType: 'click',
      targetSelector: `#item-${i}`,
      timestamp: new Date(start - 3_600_000 + index * EVENTS_PER_BATCH + i).toISOString(),
      x: i,
      y: i,
      viewport: { width: 1280, height: 800 },
    }));
    const answer = await sendWithRetries(url, 'ingestion', samples, {
      method: 'POST',
      path: `/api/sessions/${lane.sessionId}/events`,
      headers: { 'x-test-token': lane.testToken },
      body: JSON.stringify({ batch }),
    });
    if (answer.status === 200) {
      for (const item of batch) acknowledged.push({ sessionId: lane.sessionId, at: item.timestamp });
    }
  });

  // Reads at the pro tier: 8 callers, 4 a second each.
  const reads = every(1000 / (readers.length * 4), until, async (index) => {
    const reader = readers[index % readers.length]!;
    await send(url, 'reads', samples, {
      method: 'GET',
      path: `/api/jobs/${reader.studyId}`,
      headers: { authorization: reader.authorization },
    });
  });

  // Free-tier callers asking 3 a second (180 a minute against a limit of 120): whatever API
  // answers, no window serves more than the limit.
  const overLimit = every(1000 / (limited.length * 3), until, async (index) => {
    const caller = limited[index % limited.length]!;
    await send(url, `limited:${index % limited.length}`, samples, {
      method: 'GET',
      path: `/api/jobs/${caller.studyId}`,
      headers: { authorization: caller.authorization },
    });
  });

  return { acknowledged, done: Promise.all([ingestion, reads, overLimit]) };
}
