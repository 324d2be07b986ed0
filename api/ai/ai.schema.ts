import { z } from 'zod';
import { AGENT_JOB_STATUSES, SIGNAL_KINDS } from '../../lib/domain.ts';

export const analysisJobIdParams = z.object({ analysisJobId: z.uuid() });

const status = z.enum(AGENT_JOB_STATUSES);

export const analysisJobResponse = z.object({
  analysisJobId: z.string(),
  sessionId: z.string(),
  status,
  estimatedCompletionSeconds: z.number().int(),
});

export const insightsSchema = z.object({
  overallFrustrationScore: z.number(),
  attentionDropTimestamps: z.array(z.string()),
  criticalMoments: z.array(
    z.object({ timestamp: z.string(), type: z.string(), severity: z.string(), context: z.string() }),
  ),
  summary: z.string(),
});

export const analysisJobStatusResponse = analysisJobResponse.extend({
  includeSignals: z.array(z.enum(SIGNAL_KINDS)),
  snapshotAt: z.string(),
  insights: insightsSchema.nullable(),
  provider: z.string().nullable(),
  usedFallback: z.boolean(),
  error: z.string().nullable(),
  queuedAt: z.string(),
  completedAt: z.string().nullable(),
});
