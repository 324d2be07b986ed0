import { z } from 'zod';
import { httpUrl, requiredOr } from '../../lib/validation/http-url.ts';
import { DEVICES, PROTOTYPE_TYPES, STUDY_STATUSES, TONE_PROFILES } from '../../lib/domain.ts';
import { paginationQuery } from '../../lib/validation/pagination.ts';
import { ISO_4217 } from '../../lib/validation/iso-codes.ts';
import { countryCode, languageTag } from '../../lib/validation/locale-fields.ts';
import { decimal, int4, storableString } from '../../lib/validation/storable.ts';

// Bounds the spec leaves open (DESIGN.md, "Limits not shown").
const TITLE_MAX = 200;

const TEXT_MAX = 5000;

const RATIO_TOLERANCE = 1e-6;

const text = (max: number) =>
  storableString().max(max, `Must be at most ${max} characters`).trim().min(1, 'Must not be empty');

const task = z.object({
  title: text(TITLE_MAX),
  description: text(TEXT_MAX),
  successCriteria: text(TEXT_MAX).optional(),
  order: int4().min(1, 'Must be 1 or more'),
});

const tasks = z
  .array(task)
  .min(1, 'At least one task is required')
  .max(100, 'At most 100 tasks')
  .superRefine((list, ctx) => {
    list.forEach((item, index) => {
      if (item.order !== index + 1) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'order'],
          message: `Expected ${index + 1}: tasks are listed in order and numbered from 1 without gaps`,
        });
      }
    });
  })
  .meta({
    description: "Listed in order: each task's `order` is its position, numbered from 1 without gaps",
  });

const country = countryCode;

const language = languageTag;

const targeting = z.object({
  countries: z.array(country).min(1, 'At least one country is required'),
  ageRange: z
    .object({ min: int4(13, 120), max: int4(13, 120) })
    .refine((range) => range.min <= range.max, { message: 'min must not exceed max', path: ['min'] })
    .meta({ description: 'Ages from min to max, both included: min must not exceed max' })
    .optional(),
  devices: z.array(z.enum(DEVICES)).min(1, 'At least one device is required'),
  languages: z.array(language).min(1, 'At least one language is required').default(['en']),
  testerCount: int4().positive('Must be a positive integer').max(10_000),
});

const variant = z.object({
  label: storableString().max(50).trim().min(1, 'Must not be empty'),
  description: storableString().max(TEXT_MAX).trim().default(''),
});

const abTest = z
  .object({
    enabled: z.boolean(),
    variants: z.array(variant).max(10, 'At most 10 variants'),
    splitRatio: z
      .record(
        storableString(),
        // numeric(7, 6): a share that would round to 0 is refused rather than stored as nothing.
        decimal(7, 6)
          .positive('Must be above 0')
          .min(0.000001, 'Must be at least 0.000001')
          .max(1, 'Must be at most 1'),
      )
      .optional(),
  })
  .superRefine((test, ctx) => {
    if (!test.enabled) return;
    if (test.variants.length < 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: 'An enabled A/B test needs at least 2 variants',
      });
      return;
    }
    const labels = test.variants.map((v) => v.label);
    const duplicate = labels.findIndex((label, index) => labels.indexOf(label) !== index);
    if (duplicate >= 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants', duplicate, 'label'],
        message: 'Variant labels must be unique',
      });
      return;
    }
    if (!test.splitRatio) return;
    const keys = Object.keys(test.splitRatio);
    const unknown = keys.find((key) => !labels.includes(key));
    if (unknown !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['splitRatio', unknown], message: 'Not a variant label' });
      return;
    }
    const missing = labels.find((label) => !keys.includes(label));
    if (missing !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['splitRatio', missing], message: 'Required for every variant' });
      return;
    }
    const sum = Object.values(test.splitRatio).reduce((total, part) => total + part, 0);
    if (Math.abs(sum - 1) > RATIO_TOLERANCE) {
      ctx.addIssue({
        code: 'custom',
        path: ['splitRatio'],
        message: `Proportions must sum to 1.0 (got ${sum})`,
      });
    }
  })
  .meta({
    description:
      'Once enabled: at least 2 variants with unique labels; splitRatio, when given, has a share for every variant label and no other, the shares summing to 1.0',
  });

const compensation = z.object({
  currency: z
    .string()
    .refine((code) => ISO_4217.has(code), 'Must be an ISO 4217 currency code (e.g. EUR)')
    .meta({ enum: [...ISO_4217].sort() }),
  // numeric(12, 2): an amount that would round to 0.00 is refused rather than stored as nothing.
  amount: decimal(12, 2)
    .positive('Must be above 0')
    .min(0.01, 'Must be at least 0.01')
    .max(100_000)
    .refine((amount) => Math.abs(Math.round(amount * 100) - amount * 100) < 1e-6, 'At most 2 decimal places')
    .meta({ description: 'In the currency, with at most 2 decimal places' }),
  type: z.literal('flat', { error: requiredOr('Must be flat') }),
});

const settings = z.object({
  requireThinkAloud: z.boolean().default(false),
  recordScreen: z.boolean().default(false),
  recordFacial: z.boolean().default(false),
  recordVoice: z.boolean().default(false),
  maxDurationMinutes: int4(1, 1440).default(60),
  reminderAfterHours: int4(1, 720).optional(),
});

export const createStudyBody = z.object({
  title: text(TITLE_MAX),
  description: text(TEXT_MAX),
  prototypeUrl: httpUrl(),
  prototypeType: z.enum(PROTOTYPE_TYPES),
  tasks,
  targeting,
  abTest: abTest.optional(),
  compensation,
  settings: settings.default(() => settings.parse({})),
  toneProfile: z.enum(TONE_PROFILES).default('moderate'),
});

export type CreateStudyInput = z.output<typeof createStudyBody>;

export const listStudiesQuery = paginationQuery.extend({ status: z.enum(STUDY_STATUSES).optional() });

export const idempotencyKeyHeader = z
  .string()
  .trim()
  .min(1, 'Must not be empty')
  .max(255, 'Must be at most 255 characters');

export const updateStudyBody = z
  .object({
    status: z.enum(['paused', 'active', 'archived']).optional(),
    title: text(TITLE_MAX).optional(),
    description: text(TEXT_MAX).optional(),
    toneProfile: z.enum(TONE_PROFILES).optional(),
  })
  .refine(
    (body) => Object.values(body).some((value) => value !== undefined),
    'Provide status, title, description or toneProfile',
  )
  .meta({ minProperties: 1 });

export type UpdateStudyInput = z.output<typeof updateStudyBody>;
