import { sql } from 'kysely';
import type { Tx } from '../doors.ts';

// How much work waits in the service's queue tables, for operators.

/** The tables that queue work. */
export type QueueTable = 'queued_ai_work' | 'notification_outbox' | 'payments';

export interface StatusCounts<K extends string> {
  readonly counts: Record<K, number>;
  /** When the oldest row of each status present was queued (absent statuses have none). */
  readonly oldest: Partial<Record<K, Date>>;
}

/** One pass over the table: how many rows, and the oldest by `queuedAt`, in each of `statuses`. */
export async function countByStatus<K extends string>(
  tx: Tx,
  table: QueueTable,
  queuedAt: 'created_at' | 'queued_at',
  statuses: readonly K[],
): Promise<StatusCounts<K>> {
  const { rows } = await sql<{ status: K; count: number; oldest: Date }>`
    select status, count(*)::int as count, min(${sql.ref(queuedAt)}) as oldest from ${sql.table(table)}
    where status in (${sql.join(statuses)}) group by status`.execute(tx);
  const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Record<K, number>;
  const oldest: Partial<Record<K, Date>> = {};
  for (const row of rows) {
    counts[row.status] = row.count;
    oldest[row.status] = row.oldest;
  }
  return { counts, oldest };
}
