import { z } from 'zod';

const source = z.enum(['records', 'caller', 'none']);

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
  signalSources: z
    .object({
      sessionCompleted: source,
      businessRating: source,
      thinkAloudScore: source,
      completedOnTime: source,
      previousStreakCount: source,
    })
    .optional()
    .describe(
      "where each signal counted came from: the service's records where it knows them (they win over the caller's), else the caller, else none (no points); absent from results recorded before it was added",
    ),
});
