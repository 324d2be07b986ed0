import { z } from 'zod';
import { PROPOSAL_STATUSES } from '../../lib/domain.ts';

export const proposalRecord = z.object({
  proposalId: z.uuid(),
  jobId: z.uuid(),
  testerId: z.uuid(),
  matchScore: z.number().min(0).max(1),
  matchReasons: z.array(z.string()).describe('why the matching algorithm proposed the tester, as sentences'),
  status: z.enum(PROPOSAL_STATUSES),
  generatedAt: z.string().describe('ISO 8601'),
  outreachId: z.uuid().optional().describe('after acceptance: the drafted outreach message'),
  acceptedAt: z.string().optional().describe('ISO 8601, after acceptance'),
  skippedAt: z.string().optional().describe('ISO 8601, after a skip'),
});

export const proposalIdParams = z.object({ id: z.uuid() });

export const proposalApproval = z.object({
  proposalId: z.uuid(),
  status: z.literal('accepted'),
  outreachId: z.uuid().describe('the drafted outreach message, pending review'),
  acceptedAt: z.string().describe('ISO 8601'),
});

export const proposalRejection = z.object({
  proposalId: z.uuid(),
  status: z.literal('skipped'),
  skippedAt: z.string().describe('ISO 8601'),
});
