// The soak (issue 33, point 4; not part of `npm test`): the replicas benchmark's cluster (two APIs
// behind the proxy, two workers) under its steady load (200 recording sessions, pro-tier reads,
// free-tier callers beyond their limit) for 30 minutes (SOAK_MINUTES), nothing killed. Each
// process's resident memory is sampled every 15 s; its growth is the last minute's mean against
// the mean of the minute after warm-up (the first sixth of the run, at most 5 minutes).
// Target: every process flat within 10%.
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchResult } from '../../scripts/bench.ts';
import { businessCallers, recordingLanes } from './load/fixtures.ts';
import { clusterEnv, startCluster, type Member } from './replicas/cluster.ts';
import { INGESTION_SESSIONS, steadyLoad, type Sample } from './replicas/workload.ts';
import { percentile, round } from './support/stats.ts';
import { emptyRedisDatabase } from './support/redis.ts';

const TARGETS = { maxGrowthPct: 10 } as const;
const SOAK_MS = Number(process.env.SOAK_MINUTES ?? 30) * 60_000;
const WARM_UP_MS = Math.min(5 * 60_000, SOAK_MS / 6);
const SAMPLE_EVERY_MS = 15_000;
const MINUTE_OF_SAMPLES = 60_000 / SAMPLE_EVERY_MS;

/** Resident memory of a process in MB (Linux), or NaN when it cannot be read. */
async function residentMb(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export async function run(): Promise<BenchResult> {
  const REDIS_URL = await emptyRedisDatabase(12);
  const cluster = await startCluster(`soak-${process.pid}`, (proxyUrl) => clusterEnv(proxyUrl, REDIS_URL), {
    apis: 2,
    workers: 2,
  });
  const samples: Sample[] = [];
  const members: Member[] = [...cluster.apis, ...cluster.workers];
  const memory = new Map<string, { at: number; mb: number }[]>(members.map((one) => [one.name, []]));
  try {
    const lanes = await recordingLanes(INGESTION_SESSIONS);
    const readers = await businessCallers('pro', 8);
    const limited = await businessCallers('free', 4);
    const start = Date.now();
    const until = start + SOAK_MS;
    const steady = steadyLoad(cluster.url, samples, { lanes, readers, limited, start, until });
    const sampling = (async () => {
      while (Date.now() < until) {
        for (const one of members)
          memory.get(one.name)!.push({ at: Date.now() - start, mb: await residentMb(one.pid()) });
        await sleep(SAMPLE_EVERY_MS);
      }
    })();
    await Promise.all([steady.done, sampling]);

    const growth = Object.fromEntries(
      [...memory].map(([name, points]) => {
        const afterWarmUp = points.filter((point) => point.at >= WARM_UP_MS).slice(0, MINUTE_OF_SAMPLES);
        const last = points.slice(-MINUTE_OF_SAMPLES);
        const base = mean(afterWarmUp.map((point) => point.mb));
        const end = mean(last.map((point) => point.mb));
        return [name, { base: round(base), end: round(end), pct: round(((end - base) / base) * 100) }];
      }),
    );
    const maxGrowthPct = Math.max(...Object.values(growth).map((entry) => entry.pct));
    const outsideLimits = samples.filter((sample) => !sample.family.startsWith('limited:'));
    const figures = {
      minutes: round(SOAK_MS / 60_000),
      maxGrowthPct,
      ...Object.fromEntries(
        Object.entries(growth).flatMap(([name, entry]) => [
          [`${name}.rssAfterWarmUpMb`, entry.base],
          [`${name}.rssAtEndMb`, entry.end],
          [`${name}.growthPct`, entry.pct],
        ]),
      ),
      requests: samples.length,
      p99Ms: round(
        percentile(
          outsideLimits.map((sample) => sample.ms),
          99,
        ),
      ),
      serverErrors: samples.filter((sample) => sample.status >= 500).length,
      unanswered: samples.filter((sample) => sample.status === 0).length,
      acknowledgedEvents: steady.acknowledged.length,
    };
    return { figures, runs: 1, targets: { ...TARGETS }, meetsTargets: maxGrowthPct <= TARGETS.maxGrowthPct };
  } finally {
    await cluster.stop();
  }
}
