// The community statistics' rules that the snapshot, its Schedule and the endpoint share.
import { DEVICES, type Device } from './domain.ts';

const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The spec's cache life: a new snapshot every 7 days. */
export const COMMUNITY_STATS_REFRESH_MS = 7 * DAY_MS;
/**
 * Where in each 7-day interval the refresh falls: Temporal counts intervals from the Unix epoch (a
 * Thursday, 00:00 UTC), so 4 days and 3 hours on is Monday 03:00 UTC, a quiet hour.
 */
export const COMMUNITY_STATS_REFRESH_OFFSET_MS = 4 * DAY_MS + 3 * HOUR_MS;
/** A tester is active with a confirmed session in this many days before the snapshot. */
export const ACTIVE_TESTER_DAYS = 90;
/**
 * The fewest people or sessions behind a published figure, so none describes one or two testers:
 * a country with fewer testers is not listed; the rating average needs as many rated sessions,
 * the device shares as many sessions with a known device, and the compensation average as many
 * sessions in its currency (else null, or all shares 0).
 */
export const MIN_COUNT_PER_FIGURE = 10;
export const TOP_COUNTRIES = 5;

/** The Schedule's next run after `at`: the next interval boundary, never `at` itself. */
export function nextCommunityStatsRefresh(at: Date): Date {
  const since = at.getTime() - COMMUNITY_STATS_REFRESH_OFFSET_MS;
  const intervals = Math.floor(since / COMMUNITY_STATS_REFRESH_MS) + 1;
  return new Date(intervals * COMMUNITY_STATS_REFRESH_MS + COMMUNITY_STATS_REFRESH_OFFSET_MS);
}

export type DeviceShares = Record<Device, number>;

/**
 * Each device's share of the counted sessions to four decimals, summing to exactly 1 (the largest
 * remainders take the last ten-thousandths); all 0 when no session is counted.
 */
export function deviceShares(counts: DeviceShares): DeviceShares {
  const total = DEVICES.reduce((sum, device) => sum + counts[device], 0);
  const shares: DeviceShares = { desktop: 0, mobile: 0, tablet: 0 };
  if (total === 0) return shares;
  const UNITS = 10_000;
  const exact = DEVICES.map((device) => ({ device, units: (counts[device] * UNITS) / total }));
  let left = UNITS;
  for (const { device, units } of exact) {
    shares[device] = Math.floor(units);
    left -= shares[device];
  }
  const byRemainder = [...exact].sort(
    (a, b) => b.units - Math.floor(b.units) - (a.units - Math.floor(a.units)),
  );
  for (const { device } of byRemainder.slice(0, left)) shares[device] += 1;
  for (const device of DEVICES) shares[device] /= UNITS;
  return shares;
}
