import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { organizationPlan } from '../../db/repositories/organizations.ts';
import type { Plan } from '../../lib/domain.ts';
import type { Principal } from '../../commands/principal.ts';

const CACHE_MS = 60_000;

/**
 * The plan of a caller's organization, for the rate limiter's tier. Cached for a minute so the
 * limiter costs no query on most requests; a plan change takes effect within that minute.
 */
export function organizationPlans(db: Db, now: () => number = Date.now) {
  const cache = new Map<string, { plan: Plan; until: number }>();
  return {
    async planOf(principal: Principal): Promise<Plan> {
      const organizationId = principal.organizationId;
      if (!organizationId) return 'free';
      const cached = cache.get(organizationId);
      if (cached && cached.until > now()) return cached.plan;
      const plan =
        (await asUser(db, principal.claims, (tx) => organizationPlan(tx, organizationId))) ?? 'free';
      cache.set(organizationId, { plan, until: now() + CACHE_MS });
      return plan;
    },
  };
}
