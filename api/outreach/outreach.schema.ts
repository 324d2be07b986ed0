import { z } from 'zod';
import { CHANNELS } from '../../lib/domain.ts';
import { paginationQuery } from '../http/pagination.ts';
import { storableText } from '../validation/storable.ts';

export const outreachQueueQuery = paginationQuery.extend({
  jobId: z.uuid({ error: 'Must be a study id (UUID)' }).optional(),
});

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

export const editOutreachBody = z.object({
  body: storableText(10_000).trim().min(1, 'Must not be empty'),
  subject: storableText(500).trim().min(1, 'Must not be empty').optional().describe('email messages only'),
});
export type EditOutreachInput = z.output<typeof editOutreachBody>;

export const editedOutreach = z.object({
  outreachId: z.uuid(),
  status: z.literal('pending'),
  updatedAt: z.string().describe('ISO 8601'),
});

export const rejectOutreachBody = z.object({
  reason: storableText(2_000).trim().min(1).optional().describe('kept for audit'),
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
