import type { Client } from '@temporalio/client';
import { startNotificationDelivery } from '../../clients/temporal.ts';
import type { Db } from '../../db/connection.ts';
import { defineRoute, type RouteDefinition } from '../http/route.ts';
import { EvaluationRefused, evaluateSession } from '../../db/repositories/evaluate-session.ts';
import { ApiError } from '../http/errors.ts';
import { evaluateBody, evaluationResult } from './gamification.schema.ts';

export interface GamificationDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly baseUrl: string;
  readonly now: () => Date;
}

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

export function gamificationRoutes(deps: GamificationDependencies): RouteDefinition[] {
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
        const { result, levelUpNotification } = await evaluateSession(deps, body).catch((error: unknown) => {
          throw error instanceof EvaluationRefused ? asApiError(error) : error;
        });
        if (levelUpNotification)
          await startNotificationDelivery(deps.temporal, deps.taskQueue, levelUpNotification);
        return { data: JSON.parse(result) as unknown };
      },
    }),
  ];
}
