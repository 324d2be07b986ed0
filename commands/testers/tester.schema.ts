import { z } from 'zod';
import { ACCESS_NEEDS, ASSISTIVE_TECHNOLOGIES, DEVICES } from '../../lib/domain.ts';
import { countryCode, languageTag } from '../../lib/validation/locale-fields.ts';
import { int4, storableText } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

/** Testers are at least 13 (the youngest age a study may target). */
export const YOUNGEST_TESTER_AGE = 13;

const distinct = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z
    .array(item)
    .max(max)
    .refine((list) => new Set(list as unknown[]).size === list.length, `Each ${what} at most once`)
    .meta({ uniqueItems: true });

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
  )
  .meta({ minProperties: 1 });

export type TesterProfileInput = z.output<typeof updateTesterProfileBody>;

export const quizAttemptBody = z.object({
  quizId: referencedId('the id of the quiz you answer'),
  answers: z
    .array(z.object({ questionId: storableText(100).min(1), optionId: storableText(100).min(1) }))
    .min(1, 'At least one answer is required')
    .max(200),
});

export type QuizAttemptInput = z.output<typeof quizAttemptBody>;
