import { z } from 'zod';
import { sessionTasks } from '../sessions/sessions.schema.ts';

export const batchResponse = z.object({
  sessionId: z.string(),
  accepted: z.number().int().describe('valid items, stored now or by an earlier try of the same batch'),
  rejected: z.number().int(),
  rejections: z.array(
    z.object({
      index: z.number().int().describe('position in the batch'),
      reason: z.string().describe('the first violation, named by field'),
    }),
  ),
});

/**
 * The snapshots route also says which signals the session's study records, so that the extension
 * (which may call only the test-token routes) knows whether to ask for the camera and microphone.
 */
export const snapshotsResponse = batchResponse.extend({
  signals: z
    .object({
      recordFacial: z.boolean(),
      recordVoice: z.boolean(),
      requireThinkAloud: z.boolean(),
      recordScreen: z.boolean(),
    })
    .optional()
    .describe("the study's settings of the same names; an empty batch asks for them alone"),
  nextFrameIndex: z
    .number()
    .int()
    .describe(
      'one past the highest frameIndex stored for the session, this batch included: where a recorder goes on',
    ),
  nextSegmentIndex: z
    .number()
    .int()
    .describe('one past the highest segmentIndex of the voice segments stored for the session'),
  nextChunk: z
    .number()
    .int()
    .describe(
      "one past the highest chunk number of the session's DOM recording stored or in this batch, refused ones included (0 for none): where a recorder numbers on",
    ),
  tasks: sessionTasks
    .optional()
    .describe(
      "an empty batch only: the study's tasks in order (never their success criteria), each with this session's attempt, as PATCH /api/sessions/:id answers them",
    ),
  prototypeUrl: z
    .string()
    .optional()
    .describe("an empty batch only: the study's prototypeUrl, where the tester does the tasks"),
});
