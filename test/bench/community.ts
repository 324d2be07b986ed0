// The community statistics over 100,000 testers and 1,000,000 confirmed sessions (real
// PostgreSQL): the snapshot's computation (db/repositories/community-stats.ts, median of several
// runs after a warm-up), then GET /api/community/stats answered to 200 concurrent clients (each
// its own address behind one trusted proxy, as the anonymous limit counts per address), in rounds
// of 200 requests sent at the same moment; latencies as the clients see them, queueing behind the
// other 199 included. Beside it, a bare Node HTTP server sending the same bytes under the same
// load: on two cores, that floor is about the target itself. Targets: snapshot under 5 s,
// endpoint p99 under 20 ms.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { recordCommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import { nextCommunityStatsRefresh } from '../../lib/community-stats.ts';
import { startTestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { plainStudyColumns } from '../support/study-body.ts';
import { burstLatencies } from './support/burst-client.ts';
import { median, percentile, round } from './support/stats.ts';

const TESTERS = 100_000;
const SESSIONS_PER_TESTER = 10;
const STUDIES = 1_000;
const SNAPSHOT_RUNS = 3;
const CONCURRENCY = 200;
/** Rounds of 200 simultaneous requests; each address sends one a round, under its 30 a minute. */
const ROUNDS = 20;
const TARGETS = { snapshotMs: 5_000, statsP99Ms: 20 };
const CHUNK = 100_000;
const PATH = '/api/community/stats';

async function seed(run: string, organizationId: string): Promise<void> {
  const db = testDatabase();
  await asSystem(db, async (tx) => {
    await tx
      .insertInto('studies')
      .values(
        Array.from({ length: STUDIES }, (_, index) => ({
          ...plainStudyColumns(),
          organization_id: organizationId,
          title: `Bench study ${run} ${index}`,
          description: 'Objectives',
          prototype_url: 'https://shop.example',
          // 500 to 1,499 places against 1,000 sessions each: about half reach their target.
          tester_count: 500 + ((index * 7) % 1000),
          compensation_currency: index % 4 === 0 ? 'USD' : 'EUR',
          compensation_amount: 5 + (index % 30),
          status: 'completed' as const,
          paid_at: null,
          created_by: null,
        })),
      )
      .execute();
  });
  for (let start = 0; start < TESTERS; start += CHUNK) {
    await asSystem(db, (tx) =>
      sql`
        with made as (
          insert into users (email, role, display_name)
          select 'community-' || ${run} || '-' || g || '@example.com', 'tester', 'Bench tester'
          from generate_series(${start}::int, ${start + CHUNK - 1}::int) g
          returning id, split_part(split_part(email, '@', 1), '-', 7)::int as g
        )
        insert into tester_profiles (user_id, country, devices, status)
        select id,
               (array['GB', 'DE', 'FR', 'ES', 'US', 'BR', 'IN', 'JP', 'NG', 'CA', 'IS'])[1 + g % 11],
               case g % 3 when 0 then array['desktop'] when 1 then array['mobile', 'desktop'] else array['tablet'] end,
               'active'
        from made
      `.execute(tx),
    );
  }
  // Session k: tester k mod 100,000 in study (k div 100,000) * 100 + k mod 100, so no tester has
  // two sessions in one study.
  for (let start = 0; start < TESTERS * SESSIONS_PER_TESTER; start += CHUNK) {
    await asSystem(db, (tx) =>
      sql`
        with testers as (
          select id, row_number() over (order by id) - 1 as t from users
          where email like ${`community-${run}-%`}
        ),
        studies as (
          select id, row_number() over (order by id) - 1 as s from studies
          where title like ${`Bench study ${run} %`}
        )
        insert into sessions (organization_id, study_id, tester_id, status, started_at, completed_at,
                              confirmed_at, business_rating, business_rated_at, device)
        select ${organizationId}, st.id, te.id, 'confirmed',
               now() - make_interval(days => k % 300, hours => 1), now() - make_interval(days => k % 300),
               now() - make_interval(days => k % 300),
               case when k % 5 = 0 then null else 1 + k % 5 end,
               case when k % 5 = 0 then null else now() - make_interval(days => k % 300) end,
               (array['desktop', 'mobile', 'tablet'])[1 + k % 3]
        from generate_series(${start}::int, ${start + CHUNK - 1}::int) k
        join testers te on te.t = k % ${TESTERS}
        join studies st on st.s = (k / ${TESTERS}) * 100 + k % 100
      `.execute(tx),
    );
  }
  await sql`vacuum analyze users, tester_profiles, studies, sessions`.execute(db);
}

async function timedSnapshots(): Promise<{ coldMs: number; ms: number; sessions: number; testers: number }> {
  const snapshot = async () => {
    const started = performance.now();
    const now = new Date();
    const row = await asSystem(testDatabase(), (tx) =>
      recordCommunityStatsSnapshot(tx, now, nextCommunityStatsRefresh(now)),
    );
    return { ms: performance.now() - started, row };
  };
  const cold = await snapshot();
  const times: number[] = [];
  for (let i = 0; i < SNAPSHOT_RUNS; i += 1) times.push((await snapshot()).ms);
  return {
    coldMs: round(cold.ms),
    ms: round(median(times)),
    sessions: cold.row.total_sessions_completed,
    testers: cold.row.total_testers,
  };
}

const measured = (latencies: number[]) => ({
  p50: round(percentile(latencies, 50), 2),
  p99: round(percentile(latencies, 99), 2),
});

/** The endpoint under 200 simultaneous clients, and a bare Node server sending the same bytes under the same load. */
async function timedEndpoint() {
  const api = await startTestApi({ env: { TRUST_PROXY: '1' }, worker: false });
  let body: string;
  let latencies: number[];
  try {
    body = (await api.request('GET', PATH)).text;
    const port = Number(new URL(api.url).port);
    latencies = await burstLatencies({
      port,
      path: PATH,
      clients: CONCURRENCY,
      rounds: ROUNDS,
      forwardedFor: true,
    });
  } finally {
    await api.stop();
  }
  // What any Node HTTP server answers on this machine under the same burst: the floor under the figure.
  const bare = createServer((_, response) => {
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.end(body);
  });
  bare.listen(0, '127.0.0.1');
  await once(bare, 'listening');
  try {
    const port = (bare.address() as AddressInfo).port;
    const floor = await burstLatencies({
      port,
      path: PATH,
      clients: CONCURRENCY,
      rounds: ROUNDS,
      forwardedFor: false,
    });
    return { ...measured(latencies), requests: latencies.length, bare: measured(floor) };
  } finally {
    bare.close();
  }
}

export async function run() {
  const { organizationId } = await createBusiness('pro');
  const seedStarted = performance.now();
  await seed(randomUUID(), organizationId);
  const seedMs = round(performance.now() - seedStarted);
  const snapshot = await timedSnapshots();
  const endpoint = await timedEndpoint();
  return {
    figures: {
      snapshotMs: snapshot.ms,
      snapshotColdMs: snapshot.coldMs,
      statsP50Ms: endpoint.p50,
      statsP99Ms: endpoint.p99,
      bareNodeP50Ms: endpoint.bare.p50,
      bareNodeP99Ms: endpoint.bare.p99,
      testers: snapshot.testers,
      sessions: snapshot.sessions,
      requests: endpoint.requests,
      seedMs,
    },
    runs: SNAPSHOT_RUNS,
    targets: TARGETS,
    meetsTargets: snapshot.ms < TARGETS.snapshotMs && endpoint.p99 < TARGETS.statsP99Ms,
  };
}
