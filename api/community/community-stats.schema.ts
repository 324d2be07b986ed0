import { z } from 'zod';
import type { CommunityStatsSnapshot } from '../../db/repositories/community-stats.ts';
import { MIN_COUNT_PER_FIGURE, TOP_COUNTRIES } from '../../lib/community-stats.ts';

const share = z.number().min(0).max(1);

export const communityStats = z.object({
  totalTesters: z.number().int().min(0).describe('accounts registered as testers'),
  activeTesters: z
    .number()
    .int()
    .min(0)
    .describe('testers with a confirmed session in the 90 days before cachedAt'),
  totalStudiesCompleted: z
    .number()
    .int()
    .min(0)
    .describe('studies whose confirmed sessions reached their testerCount'),
  totalSessionsCompleted: z.number().int().min(0).describe('confirmed sessions'),
  avgSessionRating: z
    .number()
    .min(1)
    .max(5)
    .nullable()
    .describe(
      "mean of the businesses' ratings of confirmed sessions, two decimals; null before the first rating",
    ),
  topCountries: z
    .array(z.object({ country: z.string().length(2), testerCount: z.number().int() }))
    .max(TOP_COUNTRIES)
    .describe(
      `the ${TOP_COUNTRIES} countries (ISO 3166-1 alpha-2) with most testers, most first; a country with fewer than ${MIN_COUNT_PER_FIGURE} testers is never listed`,
    ),
  deviceBreakdown: z
    .object({ desktop: share, mobile: share, tablet: share })
    .describe(
      `share of confirmed sessions (with a known device) per device, four decimals summing to 1; all 0 while fewer than ${MIN_COUNT_PER_FIGURE} sessions have a known device`,
    ),
  avgCompensationPerSession: z
    .object({ currency: z.string().length(3), amount: z.number().min(0) })
    .nullable()
    .describe(
      `mean per-session compensation of confirmed sessions, in the currency most of them were offered in (ISO 4217; the others are not converted); null while fewer than ${MIN_COUNT_PER_FIGURE} sessions are in it`,
    ),
  cachedAt: z.string().describe('ISO 8601: when the snapshot was computed'),
  nextRefreshAt: z
    .string()
    .describe('ISO 8601: when the next snapshot is due (Mondays 03:00 UTC, every 7 days)'),
});

export type CommunityStats = z.output<typeof communityStats>;

export function communityStatsOf(snapshot: CommunityStatsSnapshot): CommunityStats {
  const devices = snapshot.device_breakdown;
  return {
    totalTesters: snapshot.total_testers,
    activeTesters: snapshot.active_testers,
    totalStudiesCompleted: snapshot.total_studies_completed,
    totalSessionsCompleted: snapshot.total_sessions_completed,
    avgSessionRating: snapshot.avg_session_rating === null ? null : Number(snapshot.avg_session_rating),
    topCountries: snapshot.top_countries.map(({ country, testerCount }) => ({ country, testerCount })),
    deviceBreakdown: {
      desktop: devices.desktop ?? 0,
      mobile: devices.mobile ?? 0,
      tablet: devices.tablet ?? 0,
    },
    avgCompensationPerSession:
      snapshot.avg_compensation_currency === null || snapshot.avg_compensation_amount === null
        ? null
        : {
            currency: snapshot.avg_compensation_currency,
            amount: Number(snapshot.avg_compensation_amount),
          },
    cachedAt: snapshot.cached_at.toISOString(),
    nextRefreshAt: snapshot.next_refresh_at.toISOString(),
  };
}
