// The stack's own cost (issue 33, point 5), measured from outside against a bare Node server doing
// the same work in the same run, so the machine's swings cancel out:
//   statsP99ToBareNode    GET /api/community/stats (a cached snapshot) under 200 concurrent
//                         clients, p99 against a bare `node:http` server sending the same bytes
//   readsPerSecondToBare  GET /api/jobs/:id at 8 concurrent (a study with tasks and variants),
//                         reads a second against a bare `node:http` + `pg` server doing the same
//                         row-level-security read (begin, set the claims, the API's own statement,
//                         commit)
// Targets: at most 2, and at least 0.5. Each pair runs ROUNDS times in turn (bare, API, bare, API...)
// and the figure is the median of the rounds' ratios: one collection pause or a neighbour's burst on
// this shared machine moves one round's p99 by half, not the figure. The API runs as production runs it (its own process, the
// rate limiter on Redis, logging at `info` to a discarded stdout); each anonymous request comes
// from an address of its own and the reads from 200 members of one organization, so the limiter
// counts every request without refusing any.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pg from 'pg';
import type { BenchResult } from '../../scripts/bench.ts';
import type { Claims } from '../../db/doors.ts';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { studyWithParts } from '../../db/repositories/studies.ts';
import { validStudyBody } from '../support/study-body.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabaseUrl } from '../support/database.ts';
import { createBusiness, createMembers } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { startServiceProcesses } from './load/service-processes.ts';
import { median, round } from './support/stats.ts';
import { emptyRedisDatabase } from './support/redis.ts';

const TARGETS = { statsP99ToBareNode: 2, readsPerSecondToBare: 0.5 } as const;
const STATS_CONNECTIONS = 200;
const READ_CONNECTIONS = 8;
const SECONDS = 10;
const ROUNDS = 3;
/** Untimed load first: a server in production has long had its hot paths compiled by V8. */
const WARM_UP_SECONDS = 5;
const MEMBERS = 200;

/** Compiles queries without a connection, as the service's own would be written. */
const compiler = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

interface Measured {
  readonly p99Ms: number;
  readonly perSecond: number;
  readonly non2xx: number;
}

/** Requests sent by every run so far: a request's index is unique in the whole benchmark. */
let sent = 0;

/** autocannon against `url` for SECONDS; `headers(i)` gives the i-th request's headers. */
function measure(
  url: string,
  path: string,
  connections: number,
  headers: (index: number) => Record<string, string>,
  duration = SECONDS,
): Promise<Measured> {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration,
        requests: [{ setupRequest: (request) => ({ ...request, path, headers: headers(sent++) }) }],
      },
      (error, result) => {
        if (error) reject(error as Error);
        else
          resolve({
            p99Ms: result.latency.p99,
            perSecond: result.requests.average,
            non2xx: result.non2xx,
          });
      },
    );
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Members of one organization, each with a token of its own (its own rate-limit budget). */
async function members(organizationId: string, count: number): Promise<{ claims: Claims; token: string }[]> {
  const made = await createMembers(organizationId, count);
  return Promise.all(
    made.map(async (claims) => ({ claims, token: await sessionToken(claims, new Date(), 3600) })),
  );
}

export async function run(): Promise<BenchResult> {
  const REDIS_URL = await emptyRedisDatabase(11);
  const service = await startServiceProcesses(
    `stack-cost-${process.pid}`,
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      BASE_URL: 'https://usability.example',
      JWT_SECRET: testConfig().auth.jwtSecret,
      TRUST_PROXY: '1',
      REDIS_URL,
    },
    // STACK_COST_PROFILE=<dir>: the API writes a CPU profile there when it stops.
    process.env.STACK_COST_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.STACK_COST_PROFILE}`] : [],
  );
  const business = await createBusiness('pro');
  // A study as businesses make them (its tasks and A/B variants), through the API.
  const created = await fetch(`${service.url}/api/jobs`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await sessionToken(business.claims)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(validStudyBody()),
  });
  if (created.status !== 201) throw new Error(`creating the study answered ${created.status}`);
  const studyId = ((await created.json()) as { data: { jobId: string } }).data.jobId;
  // The very statement the API's read sends (db/repositories/studies.ts), compiled, not copied.
  const read = studyWithParts(compiler, studyId).compile();
  const readers = await members(business.organizationId, MEMBERS);
  const pool = new pg.Pool({ connectionString: serviceDatabaseUrl(), max: testConfig().database.poolSize });
  const servers: Server[] = [];
  try {
    // The snapshot the API serves, once (the first read may make it).
    let stats: Response | undefined;
    for (let attempt = 0; attempt < 60 && stats?.status !== 200; attempt += 1) {
      stats = await fetch(`${service.url}/api/community/stats`, {
        headers: { 'x-forwarded-for': `10.66.0.${attempt + 1}` },
      });
      if (stats.status !== 200) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    if (stats?.status !== 200) throw new Error(`community statistics answered ${stats?.status}`);
    const statsBody = Buffer.from(await stats.arrayBuffer());
    const statsHeaders = {
      'content-type': stats.headers.get('content-type') ?? 'application/json',
      'cache-control': stats.headers.get('cache-control') ?? 'no-cache',
    };
    const bareStats = createServer((_request, response) => {
      response.writeHead(200, statsHeaders);
      response.end(statsBody);
    });
    servers.push(bareStats);
    const bareStatsUrl = await listen(bareStats);

    // The same read as the API's, through the same login and row-level security.
    const bareReads = createServer((request, response) => {
      const index = Number(request.headers['x-reader'] ?? 0);
      const claims = readers[index % readers.length]!.claims;
      void (async () => {
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query(
            "select set_config('request.jwt.claims', $1, true), set_config('role', 'usability_app', true)",
            [JSON.stringify(claims)],
          );
          const { rows } = await client.query<Record<string, unknown>>(read.sql, [...read.parameters]);
          await client.query('commit');
          response.writeHead(rows.length ? 200 : 404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ success: true, data: rows[0] ?? null, error: null, metadata: null }));
        } catch (error) {
          await client.query('rollback').catch(() => undefined);
          response.writeHead(500).end(String(error));
        } finally {
          client.release();
        }
      })();
    });
    servers.push(bareReads);
    const bareReadsUrl = await listen(bareReads);

    const anonymous = (index: number) => ({
      'x-forwarded-for': `10.${60 + Math.floor(index / 65_000)}.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`,
    });
    const reader = (index: number) => ({
      authorization: `Bearer ${readers[index % readers.length]!.token}`,
      'x-reader': String(index),
    });
    /**
     * A pair run once, in turn, bare first: both meet the machine in the same state. The bare
     * servers answer any path as the API answers this one.
     */
    const pair = async (
      bareUrl: string,
      path: string,
      connections: number,
      headers: (index: number) => Record<string, string>,
      seconds?: number,
    ) => ({
      bare: await measure(bareUrl, path, connections, headers, seconds),
      api: await measure(service.url, path, connections, headers, seconds),
    });
    const statsPair = (seconds?: number) =>
      pair(bareStatsUrl, '/api/community/stats', STATS_CONNECTIONS, anonymous, seconds);
    const readsPair = (seconds?: number) =>
      pair(bareReadsUrl, `/api/jobs/${studyId}`, READ_CONNECTIONS, reader, seconds);
    await statsPair(WARM_UP_SECONDS);
    await readsPair(WARM_UP_SECONDS);
    const statsRounds: { bare: Measured; api: Measured }[] = [];
    const readsRounds: { bare: Measured; api: Measured }[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      statsRounds.push(await statsPair());
      readsRounds.push(await readsPair());
    }
    const statsRatios = statsRounds.map(({ bare, api }) => round(api.p99Ms / Math.max(1, bare.p99Ms), 2));
    const readsRatios = readsRounds.map(({ bare, api }) => round(api.perSecond / bare.perSecond, 2));
    const statsP99ToBareNode = median(statsRatios);
    const readsPerSecondToBare = median(readsRatios);
    const all = [...statsRounds, ...readsRounds].flatMap(({ bare, api }) => [bare, api]);
    const figures = {
      statsP99ToBareNode,
      statsRatios,
      statsP99Ms: statsRounds.map(({ api }) => api.p99Ms),
      bareStatsP99Ms: statsRounds.map(({ bare }) => bare.p99Ms),
      statsPerSecond: statsRounds.map(({ api }) => round(api.perSecond)),
      bareStatsPerSecond: statsRounds.map(({ bare }) => round(bare.perSecond)),
      readsPerSecondToBare,
      readsRatios,
      readsPerSecond: readsRounds.map(({ api }) => round(api.perSecond)),
      bareReadsPerSecond: readsRounds.map(({ bare }) => round(bare.perSecond)),
      readsP99Ms: readsRounds.map(({ api }) => api.p99Ms),
      bareReadsP99Ms: readsRounds.map(({ bare }) => bare.p99Ms),
      non2xx: all.reduce((total, run) => total + run.non2xx, 0),
    };
    const meetsTargets =
      statsP99ToBareNode <= TARGETS.statsP99ToBareNode &&
      readsPerSecondToBare >= TARGETS.readsPerSecondToBare &&
      figures.non2xx === 0;
    return { figures, runs: ROUNDS, targets: { ...TARGETS }, meetsTargets };
  } finally {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await pool.end();
    await service.stop();
  }
}
