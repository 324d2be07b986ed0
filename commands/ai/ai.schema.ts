import { z } from 'zod';
import { SIGNAL_KINDS } from '../../lib/domain.ts';
import { isoTimestamp } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const analysisRequestBody = z.object({
  sessionId: referencedId('a session id'),
  includeSignals: z
    .array(z.enum(SIGNAL_KINDS, 'Must be events, facial or voice'))
    .min(1, 'At least one kind of signal is required')
    .max(3)
    .refine((kinds) => new Set(kinds).size === kinds.length, 'Must not name a kind twice')
    .meta({ uniqueItems: true })
    .optional(),
  snapshotAt: isoTimestamp().optional(),
});

export type AnalysisRequest = z.output<typeof analysisRequestBody>;
