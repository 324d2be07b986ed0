import type { Insertable } from 'kysely';
import type { StudiesTable } from '../../db/schema.ts';

/** A study create body that passes every rule of the spec; tests change one field at a time. */
export function validStudyBody(): Record<string, unknown> {
  return {
    title: 'Checkout flow study',
    description: 'Find the barriers screen-reader users meet when paying.',
    prototypeUrl: 'https://shop.example/checkout',
    prototypeType: 'url',
    tasks: [
      { title: 'Find a product', description: 'Search for a kettle', order: 1 },
      { title: 'Pay', description: 'Complete the purchase', successCriteria: 'Order page shown', order: 2 },
    ],
    targeting: { countries: ['GB', 'DE'], devices: ['desktop', 'mobile'], testerCount: 10 },
    compensation: { currency: 'EUR', amount: 25, type: 'flat' },
  };
}

/** The same body with an enabled A/B test over the given labels. */
export function abStudyBody(labels: string[] = ['A', 'B'], splitRatio?: Record<string, number>) {
  return {
    ...validStudyBody(),
    abTest: {
      enabled: true,
      variants: labels.map((label) => ({ label, description: `Variant ${label}` })),
      ...(splitRatio ? { splitRatio } : {}),
    },
  };
}

/** The fields of a study in the create response (and of each study GET /api/jobs lists), sorted. */
export const CREATED_STUDY_FIELDS = [
  'abTestEnabled',
  'createdAt',
  'estimatedLaunchDate',
  'jobId',
  'status',
  'testerCount',
  'title',
  'variants',
];

/**
 * The study columns that tests writing studies around the API leave as the API's defaults would:
 * one tester in GB on a desktop, flat pay, nothing recorded, an hour, a moderate tone, no A/B test.
 */
export function plainStudyColumns() {
  return {
    prototype_type: 'url',
    target_countries: ['GB'],
    target_devices: ['desktop'],
    target_languages: ['en'],
    target_age_min: null,
    target_age_max: null,
    tester_count: 1,
    ab_test_enabled: false,
    compensation_type: 'flat',
    require_think_aloud: false,
    record_screen: false,
    record_facial: false,
    record_voice: false,
    max_duration_minutes: 60,
    reminder_after_hours: null,
    tone_profile: 'moderate',
    idempotency_key: null,
    request_hash: null,
    estimated_launch_date: new Date(),
  } satisfies Partial<Insertable<StudiesTable>>;
}
