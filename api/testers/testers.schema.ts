import { z } from 'zod';
import { ACCESS_NEEDS, ASSISTIVE_TECHNOLOGIES, DEVICES } from '../../lib/domain.ts';
import { questionRecord } from '../admin/quiz.schema.ts';
import { badgeRecord } from '../gamification/gamification.schema.ts';
import { countryCode, languageTag } from '../validation/locale-fields.ts';
import { int4, storableText } from '../validation/storable.ts';

/** Testers are at least 13 (the youngest age a study may target). */
export const YOUNGEST_TESTER_AGE = 13;

const distinct = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .array(item)
    .max(max)
    .refine((list) => new Set(list as unknown[]).size === list.length, `Each ${what} at most once`);

export const updateTesterProfileBody = z
  .object({
    country: countryCode.optional(),
    birthYear: int4()
      .min(1900, 'Must be 1900 or later')
      .max(
        new Date().getUTCFullYear() - YOUNGEST_TESTER_AGE,
        `Testers are at least ${YOUNGEST_TESTER_AGE} years old`,
      )
      .nullable()
      .optional(),
    devices: distinct(z.enum(DEVICES), 3, 'device').min(1, 'At least one device is required').optional(),
    languages: distinct(languageTag, 20, 'language').min(1, 'At least one language is required').optional(),
    assistiveTechnologies: distinct(z.enum(ASSISTIVE_TECHNOLOGIES), 8, 'technology').optional(),
    accessNeeds: distinct(z.enum(ACCESS_NEEDS), 9, 'need').optional(),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'Give at least one field to change',
  );
export type TesterProfileInput = z.output<typeof updateTesterProfileBody>;

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

export const quizAttemptBody = z.object({
  quizId: z.uuid({ error: 'Must be the id of the quiz you answer (UUID)' }),
  answers: z
    .array(z.object({ questionId: storableText(100).min(1), optionId: storableText(100).min(1) }))
    .min(1, 'At least one answer is required')
    .max(200),
});
export type QuizAttemptInput = z.output<typeof quizAttemptBody>;

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
