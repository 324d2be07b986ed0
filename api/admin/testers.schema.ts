import { z } from 'zod';
import { paginationQuery } from '../http/pagination.ts';
import { queryInteger } from '../http/query.ts';
import { ISO_3166_ALPHA2 } from '../validation/iso-codes.ts';

export const TESTER_STATUSES = ['active', 'suspended', 'pending'] as const;

export const listTestersQuery = paginationQuery.extend({
  status: z.enum(TESTER_STATUSES).optional(),
  country: z
    .string()
    .refine((code) => ISO_3166_ALPHA2.has(code), 'Must be an ISO 3166-1 alpha-2 country code (e.g. GB)')
    .optional(),
  minSessions: queryInteger({ min: 0 }).optional(),
});

export const testerRecord = z.object({
  testerId: z.uuid(),
  email: z.string(),
  displayName: z.string().nullable(),
  country: z.string().describe('ISO 3166-1 alpha-2'),
  status: z.enum(TESTER_STATUSES),
  completedSessions: z.number().int().describe('confirmed sessions'),
  avgRating: z
    .number()
    .nullable()
    .describe('mean rating of the confirmed sessions, two decimals; null without a rated session'),
  joinedAt: z.string().describe('ISO 8601: when the account was created'),
});
