import { z } from 'zod';
import { float8, int4 } from '../../lib/validation/storable.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const evaluateBody = z.object({
  sessionId: referencedId('a session id'),
  testerId: referencedId('a tester id'),
  signals: z.object({
    sessionCompleted: z.boolean('Must be true or false'),
    businessRating: int4().min(1, 'Must be 1 to 5').max(5, 'Must be 1 to 5'),
    thinkAloudScore: float8().min(0, 'Must be 0 to 1').max(1, 'Must be 0 to 1').optional(),
    completedOnTime: z.boolean('Must be true or false').optional(),
    previousStreakCount: int4().min(0, 'Must be 0 or more').optional(),
  }),
});
