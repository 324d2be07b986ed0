import { z } from 'zod';
import { int4 } from '../../lib/validation/storable.ts';

export const aggregateRequestBody = z.object({
  includeVariantComparison: z.boolean('Must be true or false').optional(),
  minSessionCount: int4().min(1, 'Must be at least 1').max(10_000, 'Must be at most 10000').default(1),
});

export type AggregateRequest = z.output<typeof aggregateRequestBody>;
