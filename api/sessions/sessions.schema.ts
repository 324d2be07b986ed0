import { z } from 'zod';
import {
  FINDING_SEVERITIES,
  NOTE_AUTHOR_KINDS,
  NOTE_DECISIONS,
  SESSION_STATUSES,
  WCAG_LEVELS,
} from '../../lib/domain.ts';
import { insightsSchema } from '../ai/ai.schema.ts';
import { int4, isoTimestamp, storableString } from '../validation/storable.ts';

const TEXT_MAX = 5000;
const NOTE_MAX = 10_000;

const rating = int4().min(1, 'Must be 1 to 5').max(5, 'Must be 1 to 5');
const optionalText = (max: number) =>
  storableString().trim().max(max, `Must be at most ${max} characters`).optional();

export const sessionIdParams = z.object({ id: z.uuid() });

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

const status = z.enum(SESSION_STATUSES);
const timestamp = z.string().describe('ISO 8601');

export const createdSessionResponse = z.object({
  sessionId: z.string(),
  jobId: z.string(),
  testerId: z.string(),
  variant: z.string().nullable(),
  status,
  createdAt: timestamp,
});

export const sessionResponse = z.object({
  sessionId: z.string(),
  jobId: z.string(),
  testerId: z.string(),
  variant: z.string().nullable(),
  status,
  startedAt: timestamp,
  completedAt: timestamp.nullable(),
  durationSeconds: z.number().int().nullable(),
});

/** GET: the session with the insights of its latest completed Agent 1 analysis (POST /api/ai). */
export const sessionReadResponse = sessionResponse.extend({
  insights: insightsSchema
    .extend({
      provider: z.string().describe('the AI provider that answered, or local-analyst'),
      usedFallback: z.boolean().describe('whether a provider other than the first configured one answered'),
    })
    .nullable()
    .describe(
      "the latest completed live analysis' insights (POST /api/ai); null before one completes, and for anyone but the tester once the session has ended (for everyone once it is confirmed)",
    ),
});

export const completeSessionResponse = z.object({
  sessionId: z.string(),
  status,
  completedAt: timestamp,
});

export const analyzeSessionResponse = z.object({
  sessionId: z.string(),
  status,
  estimatedCompletionSeconds: z.number().int(),
});

export const notesResponse = z.object({
  sessionId: z.string(),
  notes: z.array(
    z.object({
      noteId: z.string(),
      content: z.string(),
      timestamp,
      authorId: z.string(),
      authorKind: z.enum(NOTE_AUTHOR_KINDS),
      severity: z.enum(FINDING_SEVERITIES).nullable(),
      wcagCriterion: z.string().nullable(),
      wcagLevel: z.enum(WCAG_LEVELS).nullable(),
      confirmed: z.boolean(),
      decision: z.enum(NOTE_DECISIONS).nullable(),
      annotation: z.string().nullable(),
      provider: z
        .string()
        .nullable()
        .describe('agent notes: the AI provider that worded it, or local-analyst'),
      usedFallback: z
        .boolean()
        .nullable()
        .describe('agent notes: whether a provider other than the first configured one worded it'),
      pattern: z.boolean().describe('an Agent 2 cross-task pattern (decided on like a finding)'),
      patternNoteId: z.string().nullable().describe('on a finding: the pattern note that groups it'),
    }),
  ),
});

export const updateNotesResponse = z.object({
  sessionId: z.string(),
  updatedCount: z.number().int(),
  createdCount: z.number().int(),
});

export const confirmSessionResponse = z.object({
  sessionId: z.string(),
  status,
  payoutQueued: z.boolean(),
  confirmedAt: timestamp,
});

export const feedbackResponse = z.object({
  sessionId: z.string(),
  feedbackId: z.string(),
  submittedAt: timestamp,
});

export const businessRatingBody = z.object({
  rating,
  comment: optionalText(2_000),
});
export type BusinessRatingInput = z.output<typeof businessRatingBody>;

export const businessRatingResponse = z.object({
  sessionId: z.string(),
  rating: z.number().int().describe('1-5'),
  comment: z.string().nullable(),
  ratedAt: timestamp,
});
