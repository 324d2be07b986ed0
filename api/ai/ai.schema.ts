import { z } from 'zod';
import { AGENT_JOB_STATUSES, SIGNAL_KINDS } from '../../lib/domain.ts';
import { isoTimestamp } from '../validation/storable.ts';

export const analysisRequestBody = z.object({
  sessionId: z.uuid('Must be a session id'),
  includeSignals: z
    .array(z.enum(SIGNAL_KINDS, 'Must be events, facial or voice'))
    .min(1, 'At least one kind of signal is required')
    .max(3)
    .refine((kinds) => new Set(kinds).size === kinds.length, 'Must not name a kind twice')
    .meta({ uniqueItems: true })
    .optional(),
  snapshotAt: isoTimestamp().optional(),
});
export type AnalysisRequest = z.output<typeof analysisRequestBody>;

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
