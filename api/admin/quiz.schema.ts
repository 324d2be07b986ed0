import { z } from 'zod';

/** A question as stored, with its correct answer (testers read it without: `testerQuiz`). */
export const questionRecord = z.object({
  questionId: z.uuid(),
  text: z.string(),
  type: z.literal('multiple_choice'),
  options: z.array(z.object({ id: z.string(), text: z.string() })),
  correctOptionId: z.string(),
  points: z.number().int(),
});

export const quizRecord = z.object({
  quizId: z.uuid(),
  version: z.number().int(),
  passingScore: z.number().int(),
  questions: z.array(questionRecord),
  updatedAt: z.string().describe('ISO 8601'),
});

export const publishedQuiz = z.object({
  quizId: z.uuid(),
  version: z.number().int(),
  questionCount: z.number().int(),
  publishedAt: z.string().describe('ISO 8601'),
});

export const updatedQuiz = z.object({
  quizId: z.uuid(),
  passingScore: z.number().int(),
  updatedAt: z.string().describe('ISO 8601'),
});
