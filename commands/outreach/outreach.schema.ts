import { z } from 'zod';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { storableText } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const outreachQueueQuery = paginationQuery.extend({
  jobId: referencedId('a study id').optional(),
});

export const editOutreachBody = z.object({
  body: storableText(10_000).trim().min(1, 'Must not be empty'),
  subject: storableText(500).trim().min(1, 'Must not be empty').optional().describe('email messages only'),
});

export type EditOutreachInput = z.output<typeof editOutreachBody>;

export const rejectOutreachBody = z.object({
  reason: storableText(2_000).trim().min(1).optional().describe('kept for audit'),
});
