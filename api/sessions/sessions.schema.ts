import { z } from 'zod';
import {
  FINDING_SEVERITIES,
  NOTE_AUTHOR_KINDS,
  NOTE_DECISIONS,
  SESSION_STATUSES,
  TASK_OUTCOMES,
  WCAG_LEVELS,
} from '../../lib/domain.ts';
import { insightsSchema } from '../ai/ai.schema.ts';

export const sessionIdParams = z.object({ id: z.uuid() });

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

const taskAttempt = z
  .object({
    state: z.enum(['in_progress', ...TASK_OUTCOMES]),
    startedAt: timestamp,
    endedAt: timestamp.nullable(),
    timeOnTaskSeconds: z
      .number()
      .nullable()
      .describe('from start to end less the time the session was paused; null while in progress'),
    ease: z
      .number()
      .int()
      .nullable()
      .describe('the Single Ease Question: 1 = very difficult ... 7 = very easy'),
    reason: z.string().nullable().describe('why the tester gave up'),
  })
  .describe(
    "the session's attempt at the task: abandoned or completed as the tester said, unfinished when the session ended first",
  );

/** The study's tasks as the session's tester follows them, each with the session's attempt. */
export const sessionTasks = z
  .array(
    z.object({
      order: z.number().int(),
      title: z.string(),
      description: z.string(),
      attempt: taskAttempt.nullable(),
    }),
  )
  .describe("the study's tasks in order (never their success criteria), each with this session's attempt");

export const sessionResponse = z.object({
  sessionId: z.string(),
  jobId: z.string(),
  testerId: z.string(),
  variant: z.string().nullable(),
  status,
  startedAt: timestamp,
  completedAt: timestamp.nullable(),
  durationSeconds: z.number().int().nullable(),
  tasks: sessionTasks,
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

export const businessRatingResponse = z.object({
  sessionId: z.string(),
  rating: z.number().int().describe('1-5'),
  comment: z.string().nullable(),
  ratedAt: timestamp,
});
