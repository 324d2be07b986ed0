import { z } from 'zod';
import { REPORT_FORMATS } from '../../lib/domain.ts';
import { referencedId } from '../../lib/validation/referenced-id.ts';

export const reportFormat = z.enum(REPORT_FORMATS, 'Must be structured or narrative');

export const createReportBody = z.object({
  sessionId: referencedId('a session id'),
  reportFormat: reportFormat.default('structured'),
  includeScreenshots: z.boolean('Must be true or false').default(false),
});
