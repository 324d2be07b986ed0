import { z } from 'zod';
import { PROPOSAL_STATUSES } from '../../lib/domain.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { storableText } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const listProposalsQuery = paginationQuery.extend({
  jobId: referencedId('a study id'),
  status: z.enum(PROPOSAL_STATUSES).optional(),
});

export const rejectProposalBody = z.object({
  reason: storableText(2_000).trim().min(1).optional().describe('why the tester is skipped, kept for audit'),
});
