import { sql, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { QueuedAiWorkTable } from '../schema-sessions.ts';
import type { AgentKind } from '../../lib/domain.ts';

export type QueuedAiWorkRow = Selectable<QueuedAiWorkTable>;
const ERROR_MAX = 5000;

/**
 * Queues a step for the retry schedule. An agent job has at most one live item (0021's unique
 * index), so a repeated enqueue is a no-op; answers whether a new item was stored.
 */
export async function enqueueAiWork(
  tx: Tx,
  item: {
    step: AgentKind;
    agentJobId: string;
    sessionId: string | null;
    payload?: Record<string, unknown>;
    error: string;
    now: Date;
  },
): Promise<boolean> {
  const inserted = await tx
    .insertInto('queued_ai_work')
    .values({
      step: item.step,
      agent_job_id: item.agentJobId,
      session_id: item.sessionId,
      payload: item.payload ?? {},
      last_error: item.error.slice(0, ERROR_MAX),
      next_attempt_at: item.now,
      created_at: item.now,
    })
    .onConflict((oc) => oc.column('agent_job_id').where('status', 'in', ['queued', 'processing']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Claims due items: queued ones, and processing ones whose lease ran out (their worker died).
 * Rows another claimer holds are skipped, and a claim moves the lease forward, so two runs never
 * take the same item at the same time.
 */
export function claimDueAiWork(
  tx: Tx,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<QueuedAiWorkRow[]> {
  const due = tx
    .selectFrom('queued_ai_work')
    .select('id')
    .where('status', 'in', ['queued', 'processing'])
    .where('next_attempt_at', '<=', options.now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(options.limit)
    .forUpdate()
    .skipLocked();
  return tx
    .updateTable('queued_ai_work')
    .set({
      status: 'processing',
      attempts: sql<number>`attempts + 1`,
      next_attempt_at: new Date(options.now.getTime() + options.leaseMs),
    })
    .where('id', 'in', due)
    .returningAll()
    .execute();
}

export function findAiWork(tx: Tx, id: string): Promise<QueuedAiWorkRow | undefined> {
  return tx.selectFrom('queued_ai_work').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Done (or failed for good): the item leaves the queue. */
export async function finishAiWork(
  tx: Tx,
  id: string,
  outcome: { status: 'done' | 'failed'; at: Date; error?: string },
): Promise<void> {
  await tx
    .updateTable('queued_ai_work')
    .set({
      status: outcome.status,
      completed_at: outcome.at,
      ...(outcome.error ? { last_error: outcome.error.slice(0, ERROR_MAX) } : {}),
    })
    .where('id', '=', id)
    .execute();
}

/** Still no provider: back in the queue until `nextAttemptAt`. */
export async function requeueAiWork(tx: Tx, id: string, error: string, nextAttemptAt: Date): Promise<void> {
  await tx
    .updateTable('queued_ai_work')
    .set({ status: 'queued', last_error: error.slice(0, ERROR_MAX), next_attempt_at: nextAttemptAt })
    .where('id', '=', id)
    .execute();
}
