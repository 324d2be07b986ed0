import { z } from 'zod';
import { int4, storableString, storableText } from '../../lib/validation/storable.ts';

const option = z.object({
  id: storableString().trim().min(1, 'Must not be empty').max(100),
  text: storableText(500).trim().min(1, 'Must not be empty'),
});

const question = z
  .object({
    text: storableText(2_000).trim().min(1, 'Must not be empty'),
    type: z.literal('multiple_choice', 'Must be multiple_choice').default('multiple_choice'),
    options: z.array(option).min(2, 'At least two options are required').max(20, 'At most 20 options'),
    correctOptionId: storableString().trim().min(1, 'Must not be empty').max(100),
    points: int4().min(1, 'Must be 1 or more').max(100, 'Must be at most 100'),
  })
  .superRefine((value, ctx) => {
    const ids = value.options.map((item) => item.id);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'id'],
          message: `Option id ${id} is used twice`,
        });
      }
    });
    if (!ids.includes(value.correctOptionId)) {
      ctx.addIssue({
        code: 'custom',
        path: ['correctOptionId'],
        message: 'Must be the id of one of the options',
      });
    }
  })
  .meta({
    description: 'correctOptionId is the id of one of the options; option ids are unique within a question',
  });

const questions = z
  .array(question)
  .min(1, 'At least one question is required')
  .max(100, 'At most 100 questions');

const passingScore = int4().min(0, 'Must be 0 to 100').max(100, 'Must be 0 to 100');

export const publishQuizBody = z.object({ passingScore, questions });

export type PublishQuizInput = z.output<typeof publishQuizBody>;

export const updateQuizBody = z
  .object({ passingScore: passingScore.optional(), questions: questions.optional() })
  .refine(
    (body) => body.passingScore !== undefined || body.questions !== undefined,
    'Give passingScore or questions',
  )
  .meta({ minProperties: 1 });

export type UpdateQuizInput = z.output<typeof updateQuizBody>;
