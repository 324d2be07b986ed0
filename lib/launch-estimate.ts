const DAY_MS = 24 * 60 * 60 * 1000;
/** Days for payment, matching and outreach approval before the first session can run. */
const LEAD_DAYS = 2;
/** Recruiting pace assumed per day once outreach is out. */
const TESTERS_PER_DAY = 20;

/**
 * When a new study is expected to open for sessions: a fixed lead time plus one day per
 * TESTERS_PER_DAY testers to recruit. A plain estimate for the create response; it is not a promise.
 */
export function estimateLaunchDate(createdAt: Date, testerCount: number): Date {
  const recruitingDays = Math.ceil(testerCount / TESTERS_PER_DAY);
  return new Date(createdAt.getTime() + (LEAD_DAYS + recruitingDays) * DAY_MS);
}
