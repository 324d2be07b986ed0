// Matching over 10,000 and over 100,000 seeded testers (real PostgreSQL): the eligibility query of
// db/repositories/matching.ts (with their session history) and the ranking of
// activities/matching/rank-candidates.ts, for one study targeting two of ten countries (about a
// fifth of the testers are in them, of whom most qualify). Median of several runs of the whole
// ranking after a warm-up; nothing is written, so every run sees the same pool. Targets: under
// 300 ms at 100,000 testers, and growing no faster than linearly (100,000 at most ten times 10,000).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { rankTestersFor } from '../../activities/matching/matching-activities.ts';
import { asSystem } from '../../db/doors.ts';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness } from '../support/factories.ts';
import { median, round } from './support/stats.ts';

const RUNS = 7;
const TARGET_MS_100K = 300;
const MAX_GROWTH = 10;
const SEED_CHUNK = 10_000;

/** Seeds testers number `from` to `to - 1` of this run: profiles of ten countries, a third with a past confirmed session. */
async function seedTesters(
  run: string,
  from: number,
  to: number,
  pastStudy: { id: string; organizationId: string },
) {
  for (let start = from; start < to; start += SEED_CHUNK) {
    const end = Math.min(to, start + SEED_CHUNK);
    await asSystem(testDatabase(), async (tx) => {
      await sql`
        with made as (
          insert into users (email, role, display_name)
          select 'bench-' || ${run} || '-' || g || '@example.com', 'tester', 'Bench tester ' || g
          from generate_series(${start}::int, ${end - 1}::int) g
          returning id, split_part(split_part(email, '@', 1), '-', 7)::int as g
        )
        insert into tester_profiles (user_id, country, birth_year, devices, languages, access_needs,
                                     status, quiz_score, quiz_passed, quiz_completed_at)
        select id,
               (array['GB', 'DE', 'FR', 'ES', 'US', 'BR', 'IN', 'JP', 'NG', 'CA'])[1 + g % 10],
               1950 + g % 55,
               case g % 3 when 0 then array['desktop'] when 1 then array['mobile', 'desktop'] else array['tablet'] end,
               case when g % 4 = 0 then array['de', 'en'] else array['en-GB'] end,
               case when g % 7 = 0 then array['blind'] else array[]::text[] end,
               'active', case when g % 11 = 0 then 40 else 85 end, g % 11 <> 0, now()
        from made
      `.execute(tx);
      await sql`
        insert into sessions (organization_id, study_id, tester_id, status, started_at, completed_at, confirmed_at,
                              business_rating, business_rated_at)
        select ${pastStudy.organizationId}, ${pastStudy.id}, u.id, 'confirmed',
               now() - make_interval(days => 1 + g % 300), now() - make_interval(days => g % 300), now() - make_interval(days => g % 300),
               1 + g % 5, now() - make_interval(days => g % 300)
        from (
          select id, split_part(split_part(email, '@', 1), '-', 7)::int as g from users
          where email like ${`bench-${run}-%`}
        ) u
        where u.g between ${start} and ${end - 1} and u.g % 3 = 0
      `.execute(tx);
    });
  }
  await sql`analyze users, tester_profiles, sessions`.execute(testDatabase());
}

async function timedRanking(studyId: string): Promise<{ ms: number; eligible: number }> {
  const rank = () => asSystem(testDatabase(), (tx) => rankTestersFor(tx, studyId, new Date()));
  const warm = await rank();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    await rank();
    times.push(performance.now() - started);
  }
  return { ms: round(median(times)), eligible: warm!.eligible };
}

export async function run() {
  // The email's seventh dash-separated part is the tester's number (bench-<uuid of five parts>-<n>).
  const runId = randomUUID();
  const { organizationId } = await createBusiness('pro');
  const past = { id: await insertStudy(organizationId, { status: 'completed' }), organizationId };
  const studyId = await insertStudy(organizationId, {
    status: 'active',
    target_countries: ['GB', 'DE'],
    target_devices: ['desktop', 'mobile'],
    target_languages: ['en'],
    target_age_min: 18,
    target_age_max: 70,
    tester_count: 50,
    description: 'Checkout with a screen reader',
  });
  await seedTesters(runId, 0, 10_000, past);
  const at10k = await timedRanking(studyId);
  await seedTesters(runId, 10_000, 100_000, past);
  const at100k = await timedRanking(studyId);
  const growth = round(at100k.ms / at10k.ms, 2);
  return {
    figures: {
      matchMs10k: at10k.ms,
      matchMs100k: at100k.ms,
      eligible10k: at10k.eligible,
      eligible100k: at100k.eligible,
      growth100kTo10k: growth,
    },
    runs: RUNS,
    targets: { matchMs100k: TARGET_MS_100K, growth100kTo10k: MAX_GROWTH },
    meetsTargets: at100k.ms < TARGET_MS_100K && growth <= MAX_GROWTH,
  };
}
