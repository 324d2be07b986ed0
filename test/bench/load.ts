// The service under the spec's load (issue 15, point 6), driven by autocannon against the API and
// the worker as production runs them (processes of their own, Redis for the rate limiter):
//   limits     at the start of a rate-limit window, fresh callers of each tier send their limit
//              and a few more as fast as they are answered: exactly the limit is served, the rest 429;
//   free, pro  one minute at each tier's rate per caller (120 and 600 a minute), many callers,
//              reads (GET /api/jobs/:id, GET /api/jobs) and creates (POST /api/jobs, which starts
//              the study's workflow) from callers of their own;
//   webhooks   1,000 signed payment deliveries in under a minute, the route's whole budget;
//   ingestion  200 recording sessions, each sending a batch of events every 5 s for a minute.
// Figures: p50 and p99 per route family, answers per status, 5xx, unanswered, and items lost (what
// was acknowledged but is not in the database). Targets: reads p99 < 50 ms, workflow writes p99 <
// 150 ms, no 5xx, nothing lost, the limits exact.
import { randomUUID } from 'node:crypto';
import type { BenchResult } from '../../scripts/bench.ts';
import { RATE_LIMITS } from '../../api/http/rate-limit.ts';
import { testConfig } from '../support/config.ts';
import { studiesOf } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { drive, type FamilyResult } from './load/drive.ts';
import { round } from './support/stats.ts';
import {
  anonymousCallers,
  businessCallers,
  createStudyRequest,
  EVENTS_PER_BATCH,
  eventBatchRequest,
  readRequest,
  recordedEvents,
  recordingLanes,
  storedEvents,
  WEBHOOK_SECRET,
  webhookDelivery,
  type BusinessCaller,
} from './load/fixtures.ts';
import { startServiceProcesses } from './load/service-processes.ts';
import { emptyRedisDatabase } from './support/redis.ts';

const TARGETS = { readsP99Ms: 50, workflowWritesP99Ms: 150 } as const;

const OVER_THE_LIMIT = 10;
const INGESTION_SESSIONS = 200;
const INGESTION_CONNECTIONS = 40;
const WINDOW_MS = 60_000;

/** Waits for the next rate-limit window (fixed minutes of the clock) to begin. */
async function nextWindow(): Promise<void> {
  const wait = WINDOW_MS - (Date.now() % WINDOW_MS) + 50;
  await new Promise((resolve) => setTimeout(resolve, wait));
}

/** True when every caller had exactly `limit` answers 2xx and `over` answers 429, nothing else. */
function exactAtLimit(result: FamilyResult, limit: number, over: number, ok: string): boolean {
  return result.perCaller.every(
    (tally) => tally[ok] === limit && tally['429'] === over && Object.keys(tally).length === 2,
  );
}

function familyFigures(name: string, result: FamilyResult): Record<string, number> {
  return {
    [`${name}.answered`]: result.answered,
    [`${name}.p50Ms`]: round(result.p50Ms),
    [`${name}.p99Ms`]: round(result.p99Ms),
    [`${name}.maxMs`]: round(result.maxMs),
    [`${name}.5xx`]: result.serverErrors,
    [`${name}.unanswered`]: result.unanswered,
    [`${name}.non2xx`]: Object.entries(result.statuses)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((sum, [, count]) => sum + count, 0),
  };
}

export async function run(): Promise<BenchResult> {
  const REDIS_URL = await emptyRedisDatabase(14);
  const service = await startServiceProcesses(`load-${process.pid}`, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    BASE_URL: 'https://usability.example',
    JWT_SECRET: testConfig().auth.jwtSecret,
    TRUST_PROXY: '1',
    REDIS_URL,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  const { url } = service;
  const run = randomUUID().slice(0, 8);
  const studyBody = JSON.stringify(validStudyBody());
  try {
    const callers = {
      limitFree: await businessCallers('free', 3),
      limitPro: await businessCallers('pro', 2),
      freeReads: await businessCallers('free', 16),
      freeWrites: await businessCallers('free', 4),
      proReads: await businessCallers('pro', 8),
      proWrites: await businessCallers('pro', 1),
    };
    const lanes = await recordingLanes(INGESTION_SESSIONS);

    // The limits, all within one window.
    await nextWindow();
    const [limitFree, limitPro, limitAnonymous, limitWebhook] = await Promise.all([
      drive({
        url,
        callers: callers.limitFree,
        perCaller: RATE_LIMITS.free + OVER_THE_LIMIT,
        request: readRequest,
      }),
      drive({
        url,
        callers: callers.limitPro,
        perCaller: RATE_LIMITS.pro + OVER_THE_LIMIT,
        request: readRequest,
      }),
      drive({
        url,
        callers: anonymousCallers(3),
        perCaller: RATE_LIMITS.unauthenticated + OVER_THE_LIMIT,
        request: (address: string) => ({
          method: 'GET',
          path: '/api/health',
          headers: { 'x-forwarded-for': address },
        }),
      }),
      drive({
        url,
        callers: ['provider'],
        perCaller: RATE_LIMITS.webhook + OVER_THE_LIMIT,
        request: webhookDelivery(`${run}_limit`),
      }),
    ]);
    const limitsExact = {
      free: exactAtLimit(limitFree, RATE_LIMITS.free, OVER_THE_LIMIT, '200'),
      pro: exactAtLimit(limitPro, RATE_LIMITS.pro, OVER_THE_LIMIT, '200'),
      unauthenticated: exactAtLimit(limitAnonymous, RATE_LIMITS.unauthenticated, OVER_THE_LIMIT, '200'),
      webhook: exactAtLimit(limitWebhook, RATE_LIMITS.webhook, OVER_THE_LIMIT, '200'),
    };

    // Each tier for a minute: every caller sends exactly its limit, one second's share at a time.
    const tier = (reads: BusinessCaller[], writes: BusinessCaller[], perMinute: number) =>
      Promise.all([
        drive({ url, callers: reads, perCaller: perMinute, perSecond: perMinute / 60, request: readRequest }),
        drive({
          url,
          callers: writes,
          perCaller: perMinute,
          perSecond: perMinute / 60,
          request: createStudyRequest(studyBody),
        }),
      ]);
    const [freeReads, freeWrites] = await tier(callers.freeReads, callers.freeWrites, RATE_LIMITS.free);
    const [proReads, proWrites] = await tier(callers.proReads, callers.proWrites, RATE_LIMITS.pro);

    // The webhook route's budget, spread over 10 senders' connections at 2 a second each (50 s).
    const webhooks = await drive({
      url,
      callers: Array.from({ length: 10 }, (_, i) => i),
      perCaller: RATE_LIMITS.webhook / 10,
      perSecond: 2,
      request: (connection: number, index: number) =>
        webhookDelivery(`${run}_paced`)(connection, index * 10 + connection),
    });

    const ingestion = await drive({
      url,
      callers: Array.from({ length: INGESTION_CONNECTIONS }, (_, i) => i),
      perCaller: 60,
      perSecond: 1,
      request: eventBatchRequest(lanes, INGESTION_CONNECTIONS),
    });

    const created = (result: FamilyResult) => result.statuses['201'] ?? 0;
    const lost = {
      studies:
        created(freeWrites) +
        created(proWrites) -
        (await studiesOf([...callers.freeWrites, ...callers.proWrites].map((c) => c.organizationId))) +
        callers.freeWrites.length +
        callers.proWrites.length,
      webhookEvents:
        (limitWebhook.statuses['200'] ?? 0) +
        (webhooks.statuses['200'] ?? 0) -
        (await recordedEvents(`${run}_limit`)) -
        (await recordedEvents(`${run}_paced`)),
      events: (ingestion.statuses['200'] ?? 0) * EVENTS_PER_BATCH - (await storedEvents(lanes)),
    };
    const families = { freeReads, freeWrites, proReads, proWrites, webhooks, ingestion };
    const all = [...Object.values(families), limitFree, limitPro, limitAnonymous, limitWebhook];
    const serverErrors = all.reduce((sum, result) => sum + result.serverErrors, 0);
    const unanswered = all.reduce((sum, result) => sum + result.unanswered, 0);
    const pacedRefused = Object.values(families).reduce(
      (sum, result) => sum + result.answered - (result.statuses['200'] ?? 0) - (result.statuses['201'] ?? 0),
      0,
    );
    const readsP99Ms = round(Math.max(freeReads.p99Ms, proReads.p99Ms));
    const workflowWritesP99Ms = round(Math.max(freeWrites.p99Ms, proWrites.p99Ms));
    const figures = {
      ...Object.fromEntries(
        Object.entries(families).flatMap(([name, result]) => Object.entries(familyFigures(name, result))),
      ),
      readsP99Ms,
      workflowWritesP99Ms,
      serverErrors,
      unanswered,
      pacedRefused,
      lostStudies: lost.studies,
      lostWebhookEvents: lost.webhookEvents,
      lostEvents: lost.events,
      limitExactFree: limitsExact.free,
      limitExactPro: limitsExact.pro,
      limitExactUnauthenticated: limitsExact.unauthenticated,
      limitExactWebhook: limitsExact.webhook,
    };
    const meetsTargets =
      readsP99Ms < TARGETS.readsP99Ms &&
      workflowWritesP99Ms < TARGETS.workflowWritesP99Ms &&
      serverErrors === 0 &&
      unanswered === 0 &&
      pacedRefused === 0 &&
      Object.values(lost).every((count) => count === 0) &&
      Object.values(limitsExact).every(Boolean);
    return { figures, runs: 1, targets: { ...TARGETS }, meetsTargets };
  } finally {
    await service.stop();
  }
}
