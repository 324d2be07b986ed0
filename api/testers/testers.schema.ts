import { z } from 'zod';
import { ACCESS_NEEDS, ASSISTIVE_TECHNOLOGIES, DEVICES } from '../../lib/domain.ts';
import { questionRecord } from '../admin/quiz.schema.ts';
import { badgeRecord } from '../gamification/gamification.schema.ts';

export const testerProfile = z.object({
  testerId: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  status: z
    .enum(['pending', 'active', 'suspended'])
    .describe('pending until the quiz is passed; active testers are matched to studies'),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2; null until filled in'),
  birthYear: z.number().int().nullable(),
  devices: z.array(z.enum(DEVICES)),
  languages: z.array(z.string()).describe('BCP 47'),
  assistiveTechnologies: z.array(z.enum(ASSISTIVE_TECHNOLOGIES)),
  accessNeeds: z.array(z.enum(ACCESS_NEEDS)),
  quiz: z
    .object({
      passed: z.boolean(),
      score: z.number().int(),
      version: z.number().int().describe('the quiz version of the latest attempt'),
      completedAt: z.string().describe('ISO 8601'),
    })
    .nullable()
    .describe('the latest result; null before the first attempt'),
  nextQuizAttemptAt: z
    .string()
    .nullable()
    .describe(
      'ISO 8601: after a failed attempt, when the next is allowed; null when an attempt is allowed now or the quiz is passed',
    ),
  points: z.number().int().describe('the sum of the points of every evaluated session (and any adjustment)'),
  level: z.number().int().describe('1 + one per 500 points'),
  badges: z.array(badgeRecord),
  createdAt: z.string().describe('ISO 8601'),
  updatedAt: z.string().describe('ISO 8601'),
});

export const testerQuiz = z.object({
  quizId: z.uuid(),
  version: z.number().int(),
  passingScore: z.number().int(),
  questions: z.array(questionRecord.omit({ correctOptionId: true })),
});

export const quizAttemptResult = z.object({
  attemptId: z.uuid(),
  quizId: z.uuid(),
  version: z.number().int(),
  score: z.number().int().describe('0-100: the points of the correct answers over all points'),
  passingScore: z.number().int(),
  passed: z.boolean(),
  completedAt: z.string().describe('ISO 8601'),
  nextAttemptAt: z
    .string()
    .nullable()
    .describe('ISO 8601 after a failed attempt (the cool-down); null when passed'),
});
