import { z } from 'zod';
import { float8, int4 } from '../validation/storable.ts';

export const evaluateBody = z.object({
  sessionId: z.uuid({ error: 'Must be a session id (UUID)' }),
  testerId: z.uuid({ error: 'Must be a tester id (UUID)' }),
  signals: z.object({
    sessionCompleted: z.boolean('Must be true or false'),
    businessRating: int4().min(1, 'Must be 1 to 5').max(5, 'Must be 1 to 5'),
    thinkAloudScore: float8().min(0, 'Must be 0 to 1').max(1, 'Must be 0 to 1').optional(),
    completedOnTime: z.boolean('Must be true or false').optional(),
    previousStreakCount: int4().min(0, 'Must be 0 or more').optional(),
  }),
});
export type EvaluateInput = z.output<typeof evaluateBody>;

const breakdown = z.object({
  sessionCompleted: z.number().int(),
  businessRating: z.number().int(),
  thinkAloudScore: z.number().int(),
  completedOnTime: z.number().int(),
  streakBonus: z.number().int(),
});

export const badgeRecord = z.object({
  badgeId: z.string(),
  name: z.string(),
  description: z.string(),
  iconUrl: z.string(),
  awardedAt: z.string().describe('ISO 8601'),
});

export const evaluationResult = z.object({
  testerId: z.uuid(),
  sessionId: z.uuid(),
  pointsAwarded: z.number().int().describe('the sum of pointsBreakdown'),
  pointsBreakdown: breakdown,
  newTotalPoints: z.number().int(),
  previousLevel: z.number().int(),
  currentLevel: z.number().int(),
  leveledUp: z.boolean(),
  badgesAwarded: z.array(badgeRecord).describe('empty when none'),
  nextLevelThreshold: z.number().int(),
  pointsToNextLevel: z.number().int(),
});
