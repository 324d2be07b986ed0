import { z } from 'zod';
import { PROPOSAL_STATUSES } from '../../lib/domain.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { storableText } from '../../lib/validation/storable.ts';

export const listProposalsQuery = paginationQuery.extend({
  jobId: z.uuid({ error: 'Must be a study id (UUID)' }),
  status: z.enum(PROPOSAL_STATUSES).optional(),
});

export const rejectProposalBody = z.object({
  reason: storableText(2_000).trim().min(1).optional().describe('why the tester is skipped, kept for audit'),
});
