import { z } from 'zod';
import { paginationQuery } from '../http/pagination.ts';
import { queryInteger } from '../http/query.ts';
import { countryCode } from '../validation/locale-fields.ts';

export const TESTER_STATUSES = ['active', 'suspended', 'pending'] as const;

export const listTestersQuery = paginationQuery.extend({
  status: z.enum(TESTER_STATUSES).optional(),
  country: countryCode.optional(),
  minSessions: queryInteger({ min: 0 }).optional(),
});

export const testerRecord = z.object({
  testerId: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2; null until the tester fills in the profile'),
  status: z.enum(TESTER_STATUSES),
  completedSessions: z.number().int().describe('confirmed sessions'),
  avgRating: z
    .number()
    .nullable()
    .describe('mean rating of the confirmed sessions, two decimals; null without a rated session'),
  joinedAt: z.string().describe('ISO 8601: when the account was created'),
});
