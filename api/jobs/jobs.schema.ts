import { z } from 'zod';
import {
  AUDIT_GRADES,
  AUDIT_JOB_STATUSES,
  DEVICES,
  PROTOTYPE_TYPES,
  STUDY_STATUSES,
  TONE_PROFILES,
  WCAG_LEVELS,
} from '../../lib/domain.ts';
import { FOUND_BY } from '../../lib/analysis/audit-comparison.ts';

export const createStudyResponse = z.object({
  jobId: z.uuid(),
  title: z.string(),
  status: z.enum(STUDY_STATUSES),
  testerCount: z.number().int(),
  abTestEnabled: z.boolean(),
  variants: z.array(z.string()),
  estimatedLaunchDate: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});

export const studyResponse = z.object({
  jobId: z.uuid(),
  title: z.string(),
  description: z.string(),
  prototypeUrl: z.string(),
  prototypeType: z.enum(PROTOTYPE_TYPES),
  status: z.enum(STUDY_STATUSES),
  tasks: z.array(
    z.object({
      title: z.string(),
      description: z.string(),
      successCriteria: z.string().nullable(),
      order: z.number(),
    }),
  ),
  targeting: z.object({
    countries: z.array(z.string()),
    ageRange: z.object({ min: z.number(), max: z.number() }).nullable(),
    devices: z.array(z.enum(DEVICES)),
    languages: z.array(z.string()),
    testerCount: z.number().int(),
  }),
  abTest: z.object({
    enabled: z.boolean(),
    variants: z.array(z.object({ label: z.string(), description: z.string() })),
    splitRatio: z.record(z.string(), z.number()),
  }),
  compensation: z.object({ currency: z.string(), amount: z.number(), type: z.literal('flat') }),
  settings: z.object({
    requireThinkAloud: z.boolean(),
    recordScreen: z.boolean(),
    recordFacial: z.boolean(),
    recordVoice: z.boolean(),
    maxDurationMinutes: z.number().int(),
    reminderAfterHours: z.number().int().nullable(),
  }),
  toneProfile: z.enum(TONE_PROFILES),
  notesConfirmed: z.boolean(),
  estimatedLaunchDate: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type Study = z.output<typeof studyResponse>;

export const studyIdParams = z.object({ id: z.uuid() });

const interval = (what: string) =>
  z
    .object({ value: z.number(), low: z.number(), high: z.number() })
    .nullable()
    .describe(
      `${what}, with its 95 % confidence interval; null when there is nothing to measure or the figures are withheld`,
    );

const taskFigures = {
  testers: z.number().int().describe('testers whose attempt at the task ended'),
  completed: z.number().int().nullable(),
  abandoned: z.number().int().nullable().describe('attempts the tester gave up on'),
  unfinished: z.number().int().nullable().describe('attempts still open when the session ended'),
  completionRate: interval('completed of ended attempts, 0 to 1 (adjusted-Wald interval)'),
  timeOnTaskSeconds: interval(
    'seconds on task of the completed attempts, pauses left out: the geometric mean (interval of the log times)',
  ),
  meanEase: z
    .number()
    .nullable()
    .describe('the mean Single Ease Question answer, 1 = very difficult ... 7 = very easy'),
  withheld: z
    .boolean()
    .describe('a group of fewer testers than minimumGroupTesters: its figures are withheld'),
};
const groupFigures = z.object({ group: z.string(), ...taskFigures }).array();

/** One task's figures: overall, against its success page, by variant and by kind of tester. */
export const taskResultSchema = z.object({
  order: z.number().int(),
  title: z.string(),
  overall: z.object(taskFigures),
  successPage: z
    .object({
      page: z.string().describe("the path (and fragment) the task's successCriteria name"),
      judged: z.number().int().describe('attempts judged against it: those of completed sessions'),
      reached: z.number().int().describe('attempts that navigated to it while the task was in progress'),
      doneWithoutReaching: z
        .number()
        .int()
        .describe('the tester said done, and never reached the page during the attempt'),
      gaveUpAfterReaching: z.number().int().describe('the tester gave up after reaching the page'),
    })
    .nullable()
    .describe(
      "null when the task's successCriteria name no page (a path such as /booking/confirmed, or a URL)",
    ),
  byVariant: groupFigures,
  byAssistiveTechnology: groupFigures.describe('a tester with several counts in each; "none" without one'),
  byDevice: groupFigures.describe('the device the session ran on; "unknown" until it is recorded'),
  byCountry: groupFigures,
});

/** GET /api/jobs/:id/results: per task, overall, by variant and by kind of tester. */
export const studyResultsResponse = z.object({
  jobId: z.string(),
  computedAt: z.string().describe('ISO 8601; the figures are computed live from the attempts so far'),
  minimumGroupTesters: z.number().int(),
  tasks: taskResultSchema.array(),
});

export const studyAuditResponse = z.object({
  jobId: z.uuid(),
  auditJobId: z
    .uuid()
    .describe('The full audit of the prototype: GET /api/audits/:auditJobId has its issues'),
  url: z.string().describe('The prototype URL audited (crawled from it, same origin)'),
  status: z.enum(AUDIT_JOB_STATUSES),
  score: z.number().int().nullable().describe('Null until the audit is complete'),
  grade: z.enum(AUDIT_GRADES).nullable(),
  pagesAudited: z.number().int(),
  queuedAt: z.iso.datetime(),
  completedAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
  comparison: z
    .array(
      z.object({
        criterion: z.string().describe('A WCAG 2.2 success criterion, e.g. 1.4.3'),
        name: z.string(),
        level: z.enum(WCAG_LEVELS),
        foundBy: z
          .enum(FOUND_BY)
          .describe(
            'both: testers met it and the audit found it; testers: only people; audit: no tester met it',
          ),
        testerFindings: z.number().int().describe('Confirmed findings under the criterion'),
        testerSessions: z.number().int(),
        auditIssues: z.number().int(),
        auditPages: z.number().int(),
      }),
    )
    .nullable()
    .describe(
      "Per criterion, the testers' confirmed findings beside the audit's issues: both first, then people only, then the audit only; null until the audit is complete",
    ),
});
