import { z } from 'zod';
import { AGENT_JOB_STATUSES, FINDING_SEVERITIES } from '../../lib/domain.ts';
import { taskResultSchema } from '../jobs/jobs.schema.ts';

export const studyIdParams = z.object({ id: z.uuid() });

const status = z.enum(AGENT_JOB_STATUSES);

export const aggregateJobResponse = z.object({
  aggregateJobId: z.string(),
  jobId: z.string(),
  sessionCount: z.number().int(),
  status,
  estimatedCompletionSeconds: z.number().int(),
});

const barrier = z.object({
  findingId: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  title: z.string(),
  affectedSessionCount: z.number().int(),
  wcag: z.object({ criterion: z.string(), level: z.string() }).nullable(),
  affectedFlow: z.string(),
});

const group = z.object({
  sessionCount: z.number().int(),
  avgScore: z.number(),
  barriers: z.array(z.string()),
});

const groups = z.record(z.string(), group);

export const aggregateStatusResponse = aggregateJobResponse.extend({
  aggregateReportId: z.string().nullable(),
  provider: z.string().nullable(),
  usedFallback: z.boolean(),
  error: z.string().nullable(),
  report: z
    .object({
      jobId: z.string(),
      sessionCount: z.number().int(),
      generatedAt: z.string(),
      studyScore: z.number(),
      topFindings: z.array(barrier),
      variantComparison: z.record(
        z.string(),
        z.object({ avgScore: z.number(), sessionCount: z.number().int() }),
      ),
      recommendations: z.array(z.string()),
      widespreadBarriers: z.array(
        z.object({ findingId: z.string(), affectedSessionCount: z.number().int(), share: z.number() }),
      ),
      profileSpecificBarriers: z.array(
        z.object({
          findingId: z.string(),
          dimension: z.string(),
          value: z.string(),
          affectedSessionCount: z.number().int(),
          groupSessionCount: z.number().int(),
        }),
      ),
      stratification: z.object({ device: groups, accessNeeds: groups, country: groups, ageBand: groups }),
      tasks: z
        .array(
          taskResultSchema.extend({
            barriers: z
              .array(
                z.object({
                  findingId: z.string().describe('a barrier cluster of topFindings or beyond'),
                  title: z.string(),
                  severity: z.enum(FINDING_SEVERITIES),
                  affectedSessionCount: z.number().int(),
                  scope: z
                    .enum(['widespread', 'profile_specific', 'isolated'])
                    .describe(
                      'widespread: met in half or more of the reported sessions that attempted the task (two at least); profile_specific: met mostly by one kind of tester; isolated: neither',
                    ),
                  profile: z.object({ dimension: z.string(), value: z.string() }).nullable(),
                }),
              )
              .describe('the barriers the testers confirmed in this task, the most affected first'),
          }),
        )
        .describe(
          'a section per study task (give-ups are overall.abandoned); empty in reports written before sessions had tasks',
        ),
      summary: z.string(),
    })
    .nullable(),
});
