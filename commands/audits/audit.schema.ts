import { emailAddress } from '../../lib/validation/email.ts';
import { z } from 'zod';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { httpUrl } from '../../lib/validation/http-url.ts';
import { int4, storableString } from '../../lib/validation/storable.ts';

export const MAX_PAGES_LIMIT = 50;

export const MAX_RECIPIENTS = 20;

const auditUrl = httpUrl();

const viewport = z
  .object({
    width: int4().min(320, 'Must be at least 320').max(3840, 'Must be at most 3840'),
    height: int4().min(240, 'Must be at least 240').max(2160, 'Must be at most 2160'),
  })
  .default({ width: 1280, height: 800 });

export const instantAuditBody = z.object({
  url: auditUrl,
  viewport,
  checkCategories: z
    .array(z.enum(AUDIT_CATEGORIES))
    .min(1, 'At least one category is required')
    .default([...AUDIT_CATEGORIES])
    .transform((list) => [...new Set(list)]),
});

export type InstantAuditRequest = z.output<typeof instantAuditBody>;

export const fullAuditBody = z.object({
  url: auditUrl,
  crawl: z.boolean().default(false),
  maxPages: int4()
    .min(1, 'Must be at least 1')
    .max(MAX_PAGES_LIMIT, `Must be at most ${MAX_PAGES_LIMIT}`)
    .default(5),
  viewport,
  reportTitle: storableString()
    .max(200, 'Must be at most 200 characters')
    .trim()
    .min(1, 'Must not be empty')
    .optional(),
  recipientEmails: z
    .array(emailAddress().transform((email) => email.toLowerCase()))
    .max(MAX_RECIPIENTS, `At most ${MAX_RECIPIENTS} recipients`)
    .default([]),
});

export type FullAuditRequest = z.output<typeof fullAuditBody>;
