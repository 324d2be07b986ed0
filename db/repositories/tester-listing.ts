import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import type { TesterStatus } from '../../lib/domain.ts';

export interface TesterListFilter {
  readonly status?: TesterStatus | undefined;
  readonly country?: string | undefined;
  readonly minSessions?: number | undefined;
  readonly limit: number;
  readonly offset: number;
}

export interface TesterListingRow {
  readonly id: string;
  readonly email: string;
  readonly display_name: string | null;
  /** Null until the tester fills in the profile. */
  readonly country: string | null;
  readonly status: TesterStatus;
  readonly completed_sessions: number;
  /** The businesses' ratings, two decimals; null while no confirmed session is rated. */
  readonly avg_rating: string | null;
  readonly joined_at: Date;
}

/**
 * Testers with a profile, with their confirmed sessions counted and rated, filtered and paged;
 * newest first. Run through the user door with admin claims: row-level security still applies.
 */
export async function listTesters(
  tx: Tx,
  filter: TesterListFilter,
): Promise<{ rows: TesterListingRow[]; total: number }> {
  let listing = tx
    .selectFrom('tester_profiles as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('sessions as s', (join) =>
      join.onRef('s.tester_id', '=', 'p.user_id').on('s.status', '=', 'confirmed'),
    )
    .where('u.role', '=', 'tester')
    .groupBy(['p.user_id', 'u.id'])
    .select([
      'u.id',
      'u.email',
      'u.display_name',
      'p.country',
      'p.status',
      'u.created_at as joined_at',
      sql<number>`count(s.id)::int`.as('completed_sessions'),
      sql<string | null>`round(avg(s.business_rating), 2)::text`.as('avg_rating'),
    ]);
  if (filter.status) listing = listing.where('p.status', '=', filter.status);
  if (filter.country) listing = listing.where('p.country', '=', filter.country);
  if (filter.minSessions) listing = listing.having(sql<number>`count(s.id)`, '>=', filter.minSessions);
  const [rows, count] = await Promise.all([
    listing
      .orderBy('u.created_at', 'desc')
      .orderBy('u.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    tx
      .selectFrom(listing.as('listed'))
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
