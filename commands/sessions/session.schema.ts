import { z } from 'zod';
import { NOTE_DECISIONS } from '../../lib/domain.ts';
import { int4, isoTimestamp, storableString } from '../../lib/validation/storable.ts';

const TEXT_MAX = 5000;

const NOTE_MAX = 10_000;

const rating = int4().min(1, 'Must be 1 to 5').max(5, 'Must be 1 to 5');

const optionalText = (max: number) =>
  storableString().trim().max(max, `Must be at most ${max} characters`).optional();

export const createSessionBody = z.object({
  jobId: z.uuid('Must be a study id'),
  testerId: z.uuid('Must be a tester id'),
  variant: storableString().trim().min(1, 'Must not be empty').max(50).optional(),
});

export type CreateSessionInput = z.output<typeof createSessionBody>;

export const completeSessionBody = z.object({
  completedAt: isoTimestamp().optional(),
});

export const updateSessionBody = z.object({
  status: z.enum(['active', 'paused', 'completed'], 'Must be one of active, paused, completed'),
});

export const updateNotesBody = z.object({
  notes: z
    .array(
      z.object({
        noteId: z.uuid('Must be a note id').optional(),
        content: storableString()
          .trim()
          .min(1, 'Must not be empty')
          .max(NOTE_MAX, `Must be at most ${NOTE_MAX} characters`),
      }),
    )
    .min(1, 'At least one note is required')
    .max(100, 'At most 100 notes'),
});

export type UpdateNotesInput = z.output<typeof updateNotesBody>;

export const confirmSessionBody = z.object({
  rating,
  comment: optionalText(TEXT_MAX),
  notes: z
    .array(
      z.object({
        noteId: z.uuid('Must be a note id'),
        decision: z.enum(NOTE_DECISIONS, 'Must be confirmed or rejected'),
        annotation: optionalText(TEXT_MAX),
      }),
    )
    .max(1000)
    .default([])
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((item, index) => {
        if (seen.has(item.noteId)) {
          ctx.addIssue({ code: 'custom', path: [index, 'noteId'], message: 'Decided twice' });
        }
        seen.add(item.noteId);
      });
    }),
});

export type ConfirmSessionInput = z.output<typeof confirmSessionBody>;

export const feedbackBody = z.object({
  clarity: rating,
  difficulty: rating,
  technicalIssues: z.boolean('Must be true or false'),
  comment: optionalText(TEXT_MAX),
});

export type FeedbackInput = z.output<typeof feedbackBody>;

export const businessRatingBody = z.object({
  rating,
  comment: optionalText(2_000),
});

export type BusinessRatingInput = z.output<typeof businessRatingBody>;
