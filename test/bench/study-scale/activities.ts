import type { Db } from '../../../db/connection.ts';
import { asSystem } from '../../../db/doors.ts';

/**
 * The one per-session step of the study-scale benchmark: the session of an accepted offer goes
 * through the transitions its workflow records (completed, analysing, analysed, confirmed by its
 * tester through the system door) in one transaction, without the test itself, Agent 2 or Agent 3.
 */
export function createBenchSessionActivities(db: Db) {
  return {
    async completeBenchSession({ sessionId }: { sessionId: string }): Promise<void> {
      await asSystem(db, async (tx) => {
        const session = await tx
          .selectFrom('sessions')
          .select(['status', 'started_at'])
          .where('id', '=', sessionId)
          .forUpdate()
          .executeTakeFirstOrThrow();
        if (session.status === 'confirmed') return;
        const at = new Date();
        const step = (values: Record<string, unknown>) =>
          tx.updateTable('sessions').set(values).where('id', '=', sessionId).execute();
        await step({ status: 'completed', completed_at: at, duration_seconds: 0 });
        await step({ status: 'analyzing' });
        await step({ status: 'analyzed', analyzed_at: at });
        await step({
          status: 'confirmed',
          confirmed_at: at,
          notes_confirmed: true,
          notes_confirmed_at: at,
          rating: 5,
        });
      });
    },
  };
}

export type BenchSessionActivities = ReturnType<typeof createBenchSessionActivities>;
