import { z } from 'zod';
import { TESTER_STATUSES } from '../../lib/domain.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { queryInteger } from '../../lib/validation/query-integer.ts';
import { countryCode } from '../../lib/validation/locale-fields.ts';
import { storableText } from '../../lib/validation/storable.ts';

export const listTestersQuery = paginationQuery.extend({
  status: z.enum(TESTER_STATUSES).optional(),
  country: countryCode.optional(),
  minSessions: queryInteger({ min: 0 }).optional(),
});

export const testerStatusBody = z.object({
  status: z.enum(['active', 'suspended'], 'Must be active or suspended'),
  reason: storableText(2_000).trim().min(1, 'Must not be empty').describe('kept for audit'),
});

export type TesterStatusInput = z.output<typeof testerStatusBody>;
