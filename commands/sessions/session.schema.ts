import { z } from 'zod';
import { EASE_MAX, EASE_MIN, NOTE_DECISIONS, TASK_PROGRESS_STATES } from '../../lib/domain.ts';
import { int4, isoTimestamp, storableString } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

const TEXT_MAX = 5000;

const NOTE_MAX = 10_000;

const rating = int4().min(1, 'Must be 1 to 5').max(5, 'Must be 1 to 5');

const optionalText = (max: number) =>
  storableString().max(max, `Must be at most ${max} characters`).trim().optional();

export const createSessionBody = z.object({
  jobId: referencedId('a study id'),
  testerId: referencedId('a tester id'),
  variant: storableString().max(50).trim().min(1, 'Must not be empty').optional(),
});

export type CreateSessionInput = z.output<typeof createSessionBody>;

export const completeSessionBody = z.object({
  completedAt: isoTimestamp().optional(),
});

/** Why the tester gave up on a task: at most this many characters. */
export const TASK_REASON_MAX = 1000;

const taskProgress = z
  .object({
    order: int4().min(1, 'Must be a task order (1 or more)').describe("the task's order in its study"),
    state: z.enum(TASK_PROGRESS_STATES, 'Must be one of started, completed, abandoned'),
    at: isoTimestamp()
      .optional()
      .describe(
        "when the tester acted; default the server's time. Within 5 minutes of the server's clock it is taken as given",
      ),
    ease: int4()
      .min(EASE_MIN, `Must be ${EASE_MIN} to ${EASE_MAX}`)
      .max(EASE_MAX, `Must be ${EASE_MIN} to ${EASE_MAX}`)
      .optional()
      .describe(
        'the Single Ease Question after the task (completed or abandoned only): 1 = very difficult ... 7 = very easy',
      ),
    reason: optionalText(TASK_REASON_MAX).describe('why the tester gave up (abandoned only)'),
  })
  .superRefine((task, ctx) => {
    if (task.ease !== undefined && task.state === 'started') {
      ctx.addIssue({
        code: 'custom',
        path: ['ease'],
        message: 'Only when the task ends (completed or abandoned)',
      });
    }
    if (task.reason !== undefined && task.state !== 'abandoned') {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'Only when the task is abandoned' });
    }
  });

export type TaskProgressInput = z.output<typeof taskProgress>;

/** A status change, or the tester's progress on one task: one of the two. */
export const updateSessionBody = z
  .object({
    status: z.enum(['active', 'paused', 'completed'], 'Must be one of active, paused, completed').optional(),
    task: taskProgress.optional().describe("the tester's progress on one of the study's tasks"),
  })
  .superRefine((body, ctx) => {
    if ((body.status === undefined) === (body.task === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [body.status === undefined ? 'status' : 'task'],
        message: 'Give either status or task, not both and not neither',
      });
    }
  })
  .meta({ description: 'Either status or task, not both and not neither' });

export const updateNotesBody = z.object({
  notes: z
    .array(
      z.object({
        noteId: referencedId('a note id').optional(),
        content: storableString()
          .max(NOTE_MAX, `Must be at most ${NOTE_MAX} characters`)
          .trim()
          .min(1, 'Must not be empty'),
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
        noteId: referencedId('a note id'),
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
    })
    .meta({ description: 'Each note decided once: a noteId appears at most once' }),
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
