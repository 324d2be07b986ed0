import { startNotificationDelivery } from '../../clients/temporal.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { EvaluationRefused, evaluateSession } from '../../commands/gamification/evaluate-session.ts';
import { ApiError } from '../../lib/errors.ts';
import { evaluationResult } from './gamification.schema.ts';
import { serviceTaskQueue, type CommandContext } from '../../commands/context.ts';
import { evaluateBody } from '../../commands/gamification/gamification.schema.ts';

/** The refusal as the spec's envelope answers it. */
const asApiError = (refusal: EvaluationRefused) =>
  new ApiError(
    refusal.kind === 'invalid'
      ? 'validation_failed'
      : refusal.kind === 'conflict'
        ? 'state_conflict'
        : 'not_found',
    refusal.message,
  );

export function gamificationRoutes(deps: CommandContext): RouteDefinition[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/gamification/evaluate',
      tag: 'Gamification',
      summary:
        'Points, level and badges for one confirmed session, once: a repeat returns the first answer (admins; the service evaluates each rated session by itself)',
      auth: 'user',
      roles: ['admin'],
      errors: [404, 409],
      body: evaluateBody,
      response: evaluationResult,
      handler: async ({ body }) => {
        const { result, levelUpNotification } = await evaluateSession(
          { db: deps.db, baseUrl: deps.config.http.baseUrl, now: deps.now },
          body,
        ).catch((error: unknown) => {
          throw error instanceof EvaluationRefused ? asApiError(error) : error;
        });
        if (levelUpNotification)
          await startNotificationDelivery(deps.temporal, serviceTaskQueue(deps), levelUpNotification);
        return { data: JSON.parse(result) as unknown };
      },
    }),
  ];
}
