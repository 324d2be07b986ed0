import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import { lockSession, rateSessionAsBusiness } from '../../db/repositories/sessions.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { BusinessRatingInput } from './session.schema.ts';
import { gamificationWorkflow } from '../../workflows/gamification.ts';
import { gamificationWorkflowId, sessionRatedSignal } from '../../workflows/messages/gamification.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * The organization's rating of its confirmed session, 1-5 with an optional comment, once. It is
 * what the admin listing's `avgRating` and the `businessRating` of gamification mean (the
 * session's `rating` stays the tester's own, given at confirmation).
 */
export async function rateSession(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: BusinessRatingInput,
  log: Logger,
) {
  const rated = await asUser(deps.db, principal.claims, async (tx) => {
    // Row-level security: another organization's session is not found.
    const session = await lockSession(tx, id);
    if (!session) throw notFound('Session');
    if (session.status !== 'confirmed') {
      throw conflict(`Session must be confirmed to rate (it is ${session.status})`);
    }
    if (session.business_rating !== null) throw conflict('Session is already rated');
    return rateSessionAsBusiness(tx, id, {
      rating: input.rating,
      comment: input.comment || null,
      ratedBy: principal.claims.sub,
      at: deps.now(),
    });
  });
  await startEvaluation(deps, id).catch((error: unknown) =>
    log.warn({ err: error, sessionId: id }, 'the rated session was not handed to its evaluation'),
  );
  return {
    sessionId: id,
    rating: rated.business_rating!,
    comment: rated.business_rating_comment,
    ratedAt: rated.business_rated_at!.toISOString(),
  };
}

/**
 * Tells the session's evaluation that it is rated (signal-with-start: the rating may come before
 * the session's workflow starts it). One that has finished keeps its answer: nothing to tell. The
 * rating stands either way; without the signal the evaluation still runs after its wait.
 */
async function startEvaluation(deps: CommandContext, sessionId: string): Promise<void> {
  try {
    await deps.temporal.workflow.signalWithStart(gamificationWorkflow, {
      workflowId: gamificationWorkflowId(sessionId),
      taskQueue: serviceTaskQueue(deps),
      args: [{ sessionId }],
      signal: sessionRatedSignal,
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}
