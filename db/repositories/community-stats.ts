import { sql } from 'kysely';
import {
  ACTIVE_TESTER_DAYS,
  deviceShares,
  MIN_COUNT_PER_FIGURE,
  TOP_COUNTRIES,
  DAY_MS,
} from '../../lib/community-stats.ts';
import type { Tx } from '../doors.ts';

// The community statistics' snapshots (0009, 0035): computed over every tester and confirmed
// session through the system door, read by anyone.

interface Aggregates {
  total_testers: number;
  active_testers: number;
  total_studies_completed: number;
  total_sessions_completed: number;
  avg_session_rating: string | null;
  desktop: number;
  mobile: number;
  tablet: number;
  top_countries: Array<{ country: string; testerCount: number }>;
  compensation_currency: string | null;
  compensation_amount: string | null;
}

/**
 * Every figure in one statement, so all of them describe the same moment. Testers are accounts
 * with the tester role; sessions count once confirmed; a study is completed once its confirmed
 * sessions reach its `testerCount`; compensation is the studies' per-session amount in the currency
 * most confirmed sessions were offered in. Averages over fewer than `MIN_COUNT_PER_FIGURE`
 * sessions are withheld (null; the device counts are judged in `recordCommunityStatsSnapshot`).
 */
function aggregates(tx: Tx, at: Date) {
  const activeSince = new Date(at.getTime() - ACTIVE_TESTER_DAYS * DAY_MS);
  return sql<Aggregates>`
    with per_study as (
      select study_id, count(*) as confirmed
      from sessions where status = 'confirmed'
      group by study_id
    ),
    confirmed as (
      select count(*)::int as sessions,
             case when count(business_rating) >= ${MIN_COUNT_PER_FIGURE}
                  then round(avg(business_rating), 2)::text end as avg_rating,
             count(*) filter (where device = 'desktop')::int as desktop,
             count(*) filter (where device = 'mobile')::int as mobile,
             count(*) filter (where device = 'tablet')::int as tablet
      from sessions where status = 'confirmed'
    ),
    compensation as (
      select st.compensation_currency as currency,
             round(sum(st.compensation_amount * c.confirmed) / sum(c.confirmed), 2)::text as amount
      from per_study c join studies st on st.id = c.study_id
      group by st.compensation_currency
      having sum(c.confirmed) >= ${MIN_COUNT_PER_FIGURE}
      order by sum(c.confirmed) desc, st.compensation_currency
      limit 1
    )
    select
      (select count(*) from users where role = 'tester')::int as total_testers,
      (select count(*) from users u
        where u.role = 'tester'
          and exists (select 1 from sessions s
                      where s.tester_id = u.id and s.status = 'confirmed' and s.confirmed_at >= ${activeSince})
      )::int as active_testers,
      (select count(*) from per_study c join studies st on st.id = c.study_id
        where c.confirmed >= st.tester_count)::int as total_studies_completed,
      confirmed.sessions as total_sessions_completed,
      confirmed.avg_rating as avg_session_rating,
      confirmed.desktop, confirmed.mobile, confirmed.tablet,
      (select coalesce(json_agg(json_build_object('country', country, 'testerCount', testers)
                                order by testers desc, country), '[]')
        from (select p.country, count(*)::int as testers
              from tester_profiles p join users u on u.id = p.user_id and u.role = 'tester'
              where p.country is not null
              group by p.country
              having count(*) >= ${MIN_COUNT_PER_FIGURE}
              order by count(*) desc, p.country
              limit ${TOP_COUNTRIES}) listed
      ) as top_countries,
      (select currency from compensation) as compensation_currency,
      (select amount from compensation) as compensation_amount
    from confirmed
  `.execute(tx);
}

/** Shares of the sessions with a known device; all 0 while they are too few to show. */
function deviceSharesOf({ desktop, mobile, tablet }: Aggregates) {
  const counted = desktop + mobile + tablet >= MIN_COUNT_PER_FIGURE;
  return deviceShares(counted ? { desktop, mobile, tablet } : { desktop: 0, mobile: 0, tablet: 0 });
}

/** Computes the statistics as of `at` and stores them as the newest snapshot. */
export async function recordCommunityStatsSnapshot(tx: Tx, at: Date, nextRefreshAt: Date) {
  const { rows } = await aggregates(tx, at);
  const figures = rows[0]!;
  return tx
    .insertInto('community_stats_snapshots')
    .values({
      total_testers: figures.total_testers,
      active_testers: figures.active_testers,
      total_studies_completed: figures.total_studies_completed,
      total_sessions_completed: figures.total_sessions_completed,
      avg_session_rating: figures.avg_session_rating,
      top_countries: JSON.stringify(figures.top_countries),
      device_breakdown: JSON.stringify(deviceSharesOf(figures)),
      avg_compensation_currency: figures.compensation_currency,
      avg_compensation_amount: figures.compensation_amount,
      cached_at: at,
      next_refresh_at: nextRefreshAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The newest snapshot, if one was ever made. */
export function latestCommunityStatsSnapshot(tx: Tx) {
  return tx
    .selectFrom('community_stats_snapshots')
    .selectAll()
    .orderBy('cached_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export type CommunityStatsSnapshot = NonNullable<Awaited<ReturnType<typeof latestCommunityStatsSnapshot>>>;
