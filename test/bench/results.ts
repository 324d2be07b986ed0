// Per-task results on a large study (issue 31): 1,000 sessions of 5 tasks each and 2,000 events per
// session in PostgreSQL; `resultsMs` is GET /api/jobs/:id/results warm (median of 5), every group
// computed. Beside it, event ingestion through the API into sessions whose tasks are in progress
// (attribution in place), against the same load into sessions of a study without tasks, in the
// same run, alternating which goes first: tasks are attributed when the analysis reads the signals
// and when a session completes (lib/analysis/task-attribution.ts), so ingestion should not slow.
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { startTestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { insertStudy } from '../auth/helpers.ts';
import { sessionToken } from '../support/tokens.ts';
import { recordingSession } from '../ingestion/fixtures.ts';
import { sendThroughApi } from './ingest.ts';
import { BATCH_ITEMS } from './support/event-batches.ts';
import { median, round } from './support/stats.ts';

const SESSIONS = 1_000;
const TASKS = 5;
const EVENTS_PER_SESSION = 2_000;
const RESULT_RUNS = 5;
const INGEST_ROUNDS = 5;
const LANES = 8;
const BATCHES_PER_LANE = 15;
export const TARGETS = { resultsMs: 1_000, ingestRatio: 0.9 } as const;

/** The study, its testers (profiles spread over countries and assistive technologies), sessions, attempts and events. */
async function seedStudy(): Promise<{ jobId: string; business: string }> {
  const owner = await createBusiness('pro');
  const jobId = await insertStudy(owner.organizationId, { status: 'active', tester_count: SESSIONS });
  await asSystem(testDatabase(), async (tx) => {
    await sql`insert into study_tasks (study_id, position, title, description, success_criteria)
      select ${jobId}, p, 'Task ' || p, 'Do task ' || p, 'Reaches /done/' || p
      from generate_series(1, ${TASKS}) p`.execute(tx);
    await sql`create temporary table bench_testers on commit drop as
      select gen_random_uuid() as id, n from generate_series(1, ${SESSIONS}) n`.execute(tx);
    await sql`insert into users (id, email, role, display_name)
      select id, 'bench-' || id || '@example.com', 'tester', 'Tester' from bench_testers`.execute(tx);
    await sql`insert into tester_profiles (user_id, country, devices, assistive_technologies, status)
      select id, (array['GB', 'DE', 'FR', 'IE'])[1 + n % 4], array['desktop'],
             case n % 3 when 0 then array['screen_reader'] when 1 then array[]::text[] else array['screen_magnifier'] end,
             'active'
      from bench_testers`.execute(tx);
    await sql`insert into sessions (study_id, organization_id, tester_id, status, device, started_at, completed_at)
      select ${jobId}, ${owner.organizationId}, id, 'completed', 'desktop',
             now() - interval '2 hours', now() - interval '1 hour'
      from bench_testers`.execute(tx);
    await sql`insert into task_attempts (session_id, task_id, started_at, ended_at, outcome, active_ms, ease,
                                         success_page, success_reached_at)
      select s.id, t.id, s.started_at + (t.position * interval '5 minutes'),
             s.started_at + (t.position * interval '5 minutes') + ((30 + (h % 240)) * interval '1 second'),
             (array['completed', 'completed', 'completed', 'abandoned', 'unfinished'])[1 + h % 5],
             (30 + (h % 240)) * 1000, 1 + h % 7, '/done/' || t.position,
             case when h % 4 = 0 then null else s.started_at + (t.position * interval '5 minutes') end
      from sessions s
      cross join study_tasks t
      cross join lateral (select abs(hashtext(s.id::text || t.id::text)) as h) hashed
      where s.study_id = ${jobId} and t.study_id = ${jobId}`.execute(tx);
    await sql`insert into session_events (session_id, event_type, target_selector, occurred_at)
      select s.id, (array['click', 'scroll', 'input', 'focus', 'navigation'])[1 + e % 5], '#control-' || (e % 50),
             s.started_at + e * interval '1 second'
      from sessions s cross join generate_series(1, ${EVENTS_PER_SESSION}) e
      where s.study_id = ${jobId}`.execute(tx);
  });
  await sql`analyze`.execute(testDatabase());
  return { jobId, business: await sessionToken(owner.claims) };
}

/** A recording session of a study of five tasks, its first task in progress. */
async function sessionWithTaskInProgress() {
  const session = await recordingSession({ tasks: TASKS });
  await asSystem(testDatabase(), async (tx) => {
    await sql`insert into task_attempts (session_id, task_id, started_at)
      select ${session.sessionId}, t.id, now() from study_tasks t join sessions s on s.study_id = t.study_id
      where s.id = ${session.sessionId} and t.position = 1`.execute(tx);
  });
  return session;
}

export async function run() {
  const api = await startTestApi({ worker: false });
  try {
    const seedStarted = performance.now();
    const { jobId, business } = await seedStudy();
    const seedMs = performance.now() - seedStarted;

    const results = async () => {
      const started = performance.now();
      const response = await fetch(`${api.url}/api/jobs/${jobId}/results`, {
        headers: { Authorization: `Bearer ${business}` },
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`results: ${response.status} ${body.slice(0, 200)}`);
      return performance.now() - started;
    };
    await results(); // warm
    const resultTimes: number[] = [];
    for (let i = 0; i < RESULT_RUNS; i++) resultTimes.push(await results());

    const ingestRounds: { withTasks: number; without: number }[] = [];
    for (let roundIndex = 0; roundIndex < INGEST_ROUNDS; roundIndex++) {
      const total = LANES * BATCHES_PER_LANE;
      const seeds = Array.from({ length: total }, (_, i) => roundIndex * total * 2 + i);
      const withTasks = await Promise.all(Array.from({ length: LANES }, () => sessionWithTaskInProgress()));
      const without = await Promise.all(Array.from({ length: LANES }, () => recordingSession()));
      const send = async (lanes: typeof without, offset: number) => {
        const { totalMs } = await sendThroughApi({
          url: api.url,
          lanes: lanes.map(({ sessionId, jwt }) => ({ sessionId, jwt })),
          seeds: seeds.map((seed) => seed + offset),
          concurrency: LANES,
        });
        return ((total * BATCH_ITEMS) / totalMs) * 1000;
      };
      const tasksFirst = roundIndex % 2 === 0;
      const first = await (tasksFirst ? send(withTasks, 0) : send(without, total));
      const second = await (tasksFirst ? send(without, total) : send(withTasks, 0));
      ingestRounds.push(
        tasksFirst ? { withTasks: first, without: second } : { withTasks: second, without: first },
      );
    }
    const ingestItemsPerSecond = median(ingestRounds.map((r) => r.withTasks));
    const ingestWithoutTasksItemsPerSecond = median(ingestRounds.map((r) => r.without));
    const figures = {
      sessions: SESSIONS,
      tasks: TASKS,
      events: SESSIONS * EVENTS_PER_SESSION,
      seedMs: round(seedMs, 0),
      resultsMs: round(median(resultTimes), 1),
      resultsMsMax: round(Math.max(...resultTimes), 1),
      ingestItemsPerSecond: round(ingestItemsPerSecond, 0),
      ingestWithoutTasksItemsPerSecond: round(ingestWithoutTasksItemsPerSecond, 0),
      ingestRatio: round(ingestItemsPerSecond / ingestWithoutTasksItemsPerSecond, 3),
    };
    const meetsTargets = figures.resultsMs < TARGETS.resultsMs && figures.ingestRatio >= TARGETS.ingestRatio;
    return { figures, runs: RESULT_RUNS, targets: { ...TARGETS }, meetsTargets };
  } finally {
    await api.stop();
  }
}
