import { z } from 'zod';
import { REPORT_FORMATS } from '../../lib/domain.ts';

export const reportFormat = z.enum(REPORT_FORMATS, 'Must be structured or narrative');

export const createReportBody = z.object({
  sessionId: z.uuid('Must be a session id'),
  reportFormat: reportFormat.default('structured'),
  includeScreenshots: z.boolean('Must be true or false').default(false),
});
