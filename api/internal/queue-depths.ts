import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';

/** Work waiting in each of the service's queues, counted by status (finished rows are not counted). */
export interface QueueDepths {
  /** queued_ai_work: analysis steps waiting for a provider (the ai-retry schedule takes them). */
  readonly aiWork: { readonly queued: number; readonly processing: number; readonly failed: number };
  /** notification_outbox: messages to testers and businesses not yet delivered. */
  readonly notifications: { readonly pending: number; readonly sending: number; readonly failed: number };
  /** payments: payouts to testers not yet paid. */
  readonly payments: { readonly queued: number; readonly processing: number; readonly failed: number };
  /** The oldest AI step or message still waiting, so a stuck queue shows as well as a long one. */
  readonly oldestWaiting: { readonly aiWork: string | null; readonly notification: string | null };
}

type Counts<K extends string> = Record<K, number>;

/** Across every organization: operators' view, through the system door. */
export function queueDepths(db: Db): Promise<QueueDepths> {
  return asSystem(db, async (tx) => {
    const count = async <K extends string>(table: string, statuses: readonly K[]): Promise<Counts<K>> => {
      const { rows } = await sql<{ status: K; count: string }>`
        select status, count(*) as count from ${sql.table(table)}
        where status in (${sql.join(statuses)}) group by status`.execute(tx);
      const counts = Object.fromEntries(statuses.map((status) => [status, 0])) as Counts<K>;
      for (const row of rows) counts[row.status] = Number(row.count);
      return counts;
    };
    const oldest = async (table: string, column: string, status: string): Promise<string | null> => {
      const { rows } = await sql<{ oldest: Date | null }>`
        select min(${sql.ref(column)}) as oldest from ${sql.table(table)} where status = ${status}`.execute(
        tx,
      );
      return rows[0]?.oldest?.toISOString() ?? null;
    };
    return {
      aiWork: await count('queued_ai_work', ['queued', 'processing', 'failed'] as const),
      notifications: await count('notification_outbox', ['pending', 'sending', 'failed'] as const),
      payments: await count('payments', ['queued', 'processing', 'failed'] as const),
      oldestWaiting: {
        aiWork: await oldest('queued_ai_work', 'created_at', 'queued'),
        notification: await oldest('notification_outbox', 'created_at', 'pending'),
      },
    };
  });
}
