import { z } from 'zod';

export const createReportBody = z.object({
  sessionId: z.uuid('Must be a session id'),
  reportFormat: z.enum(['structured', 'narrative'], 'Must be structured or narrative').default('structured'),
  includeScreenshots: z.boolean('Must be true or false').default(false),
});

export const reportIdParams = z.object({ id: z.uuid() });

export const reportJobResponse = z.object({
  reportJobId: z.string(),
  sessionId: z.string(),
  status: z.enum(['queued', 'complete', 'failed']),
  estimatedCompletionSeconds: z.number().int(),
  reportId: z.string().nullable(),
});

const finding = z.object({
  findingId: z.string(),
  severity: z.enum(['critical', 'high', 'medium', 'low']),
  title: z.string(),
  description: z.string(),
  plainEnglish: z.string(),
  timestamp: z.string(),
  affectedFlow: z.string(),
  wcag: z.object({ criterion: z.string(), level: z.enum(['A', 'AA', 'AAA']) }).nullable(),
});

export const reportResponse = z.object({
  reportId: z.string(),
  report: z.object({
    sessionId: z.string(),
    generatedAt: z.string(),
    overallScore: z.number(),
    toneProfile: z.string(),
    findings: z.array(finding),
    recommendations: z.array(z.string()),
    emotionalProfile: z.object({
      avgFrustration: z.number(),
      avgConfusion: z.number(),
      avgPositive: z.number(),
    }),
  }),
});
