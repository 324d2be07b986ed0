import { z } from 'zod';
import { TESTER_STATUSES } from '../../lib/domain.ts';

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

export const testerIdParams = z.object({ id: z.uuid() });

export const testerStatusChange = z.object({
  testerId: z.uuid(),
  status: z
    .enum(TESTER_STATUSES)
    .describe('after the change: a reinstated tester who is not qualified is pending'),
  previousStatus: z.enum(TESTER_STATUSES),
  reason: z.string(),
  changedAt: z.string().describe('ISO 8601'),
});
