import { z } from 'zod';
import { CHANNELS } from '../../lib/domain.ts';

export const outreachIdParams = z.object({ id: z.uuid() });

export const outreachRecord = z.object({
  outreachId: z.uuid(),
  jobId: z.uuid(),
  testerId: z.uuid(),
  testerEmail: z.string(),
  channel: z.enum(CHANNELS).describe('email, or the messaging channel when the tester linked a chat'),
  subject: z.string().optional().describe('email only'),
  body: z.string(),
  status: z.literal('pending'),
  generatedAt: z.string().describe('ISO 8601'),
});

export const editedOutreach = z.object({
  outreachId: z.uuid(),
  status: z.literal('pending'),
  updatedAt: z.string().describe('ISO 8601'),
});

export const rejectedOutreach = z.object({
  outreachId: z.uuid(),
  status: z.literal('rejected'),
  rejectedAt: z.string().describe('ISO 8601'),
});

export const approvedOutreach = z.object({
  outreachId: z.uuid(),
  status: z.literal('approved'),
  scheduledSendAt: z.string().describe('ISO 8601: when the offer is sent (held while the study is paused)'),
  approvedAt: z.string().describe('ISO 8601'),
});
