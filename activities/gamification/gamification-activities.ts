import { log } from '@temporalio/activity';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { EvaluationRefused, evaluateSession } from '../../commands/gamification/evaluate-session.ts';
import { sessionForEvaluation } from '../../db/repositories/gamification.ts';

/** The service's own evaluation of each confirmed session (workflows/gamification.ts). */
export function createGamificationActivities(deps: {
  readonly db: Db;
  readonly baseUrl: string;
  readonly now?: () => Date;
}) {
  const evaluation = { db: deps.db, baseUrl: deps.baseUrl, now: deps.now ?? (() => new Date()) };
  return {
    /**
     * Evaluates the confirmed session with what the records say: the organization's rating when
     * it rated (none otherwise), on time and the streak. Once per session (a repeat changes
     * nothing). Answers the level-up message's id, if one was queued.
     */
    async evaluateRatedSession({ sessionId }: { sessionId: string }): Promise<string | null> {
      const session = await asSystem(deps.db, (tx) => sessionForEvaluation(tx, sessionId));
      if (session?.status !== 'confirmed') return null;
      try {
        const evaluated = await evaluateSession(evaluation, {
          sessionId,
          testerId: session.tester_id,
          signals: { sessionCompleted: true, businessRating: session.business_rating },
        });
        return evaluated.levelUpNotification;
      } catch (error) {
        if (!(error instanceof EvaluationRefused)) throw error;
        log.info('The session was not evaluated', { sessionId, reason: error.message });
        return null;
      }
    },
  };
}

export type GamificationActivities = ReturnType<typeof createGamificationActivities>;
