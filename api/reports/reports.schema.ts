import { z } from 'zod';
import { AGENT_JOB_STATUSES, FINDING_SEVERITIES, WCAG_LEVELS } from '../../lib/domain.ts';
import { reportFormat } from '../../commands/reports/report.schema.ts';

const jobStatus = z.enum(AGENT_JOB_STATUSES);

export const reportIdParams = z.object({ id: z.uuid() });

export const reportJobIdParams = z.object({ reportJobId: z.uuid() });

/** GET /api/reports/:id renders the stored facts in either format; without `format`, structured. */
export const reportQuery = z.object({
  format: reportFormat.default('structured'),
  includeScreenshots: z
    .enum(['true', 'false'], 'Must be true or false')
    .default('false')
    .transform((value) => value === 'true'),
});

export const reportJobResponse = z.object({
  reportJobId: z.string(),
  sessionId: z.string(),
  status: jobStatus,
  estimatedCompletionSeconds: z.number().int(),
  reportId: z.string().nullable(),
  reportFormat,
  includeScreenshots: z.boolean(),
  reportUrl: z.string().nullable().describe('where the report reads in the requested format, once complete'),
  usedFallback: z.boolean().describe('whether a provider other than the first configured one wrote it'),
});

const provider = z
  .string()
  .nullable()
  .describe('the AI provider that wrote it, or local-analyst; null before it is written');

/** GET /api/reports/jobs/:reportJobId (DESIGN.md's polling endpoint for Agent 3). */
export const reportJobStatusResponse = z.object({
  reportJobId: z.string(),
  sessionId: z.string(),
  status: jobStatus,
  estimatedCompletionSeconds: z.number().int(),
  reportId: z.string().nullable().describe('once complete: read it at GET /api/reports/{id}'),
  provider,
  usedFallback: z.boolean().describe('whether a provider other than the first configured one wrote it'),
  error: z.string().nullable().describe('the last failure, while the job is retried or once it failed'),
});

const screenshot = z.object({
  url: z.string().describe('the PNG as a data: URL'),
  alt: z.string().describe("the picture's text alternative: what it shows, where, when and what is outlined"),
  width: z.number().int(),
  height: z.number().int(),
  source: z
    .enum(['replay', 'reconstructed'])
    .describe(
      "replay: the session's screen recording replayed to the moment; reconstructed: no recording covers it, so the prototype page as it loads now (not the tester's screen)",
    ),
  pageUrl: z.string().nullable().describe('the address pictured (origin and path)'),
  outlined: z.boolean().describe("whether the finding's element was found and outlined in red"),
  capturedAt: z.iso.datetime().describe('when the picture was made'),
});

const finding = z.object({
  findingId: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  title: z.string(),
  description: z.string(),
  plainEnglish: z.string(),
  timestamp: z.string(),
  affectedFlow: z.string(),
  wcag: z.object({ criterion: z.string(), level: z.enum(WCAG_LEVELS) }).nullable(),
  screenshots: z
    .array(screenshot)
    .optional()
    .describe("with includeScreenshots only: the picture of the finding's moment (one), or none"),
  screenshotNote: z
    .string()
    .nullable()
    .optional()
    .describe('with includeScreenshots only: why the finding has no picture (yet); null when it has one'),
});

const wcagReference = z.object({
  criterion: z.string(),
  level: z.enum(WCAG_LEVELS),
  name: z.string().optional(),
});

const pattern = z.object({
  patternId: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  wcag: wcagReference.nullable(),
  description: z.string(),
  findingIds: z.array(z.string()).describe('the findings of this report it groups'),
});

const reportTask = z.object({
  order: z.number().int(),
  title: z.string(),
  outcome: z
    .enum(['completed', 'abandoned', 'unfinished', 'not_attempted'])
    .describe(
      'as the tester said (completed, abandoned), unfinished when the session ended first, or never started',
    ),
  timeOnTaskSeconds: z.number().nullable().describe('pauses left out; null when not attempted'),
  ease: z
    .number()
    .int()
    .nullable()
    .describe('the Single Ease Question: 1 = very difficult ... 7 = very easy'),
  findingIds: z
    .array(z.string())
    .describe('the findings of this report made while the tester was on the task'),
});

export const reportResponse = z.object({
  reportId: z.string(),
  provider,
  usedFallback: z.boolean().describe('whether a provider other than the first configured one wrote it'),
  report: z.object({
    sessionId: z.string(),
    generatedAt: z.string(),
    overallScore: z.number(),
    toneProfile: z.string(),
    reportFormat,
    findings: z.array(finding),
    patterns: z
      .array(pattern)
      .describe('cross-task patterns (Agent 2) the tester confirmed; they add no penalty to the score'),
    tasks: z
      .array(reportTask)
      .describe(
        "a section per study task: how the tester's attempt went and its findings; empty in reports written before sessions had tasks",
      ),
    recommendations: z.array(z.string()),
    emotionalProfile: z.object({
      avgFrustration: z.number(),
      avgConfusion: z.number(),
      avgPositive: z.number(),
    }),
    narrative: z.string().optional().describe('the same facts as prose, in the narrative format only'),
  }),
});
