import { z } from 'zod';
import { storableText } from '../validation/text.ts';

// The spec's ingestion item tables ("Ingestion items"), one schema per kind. Each item of a batch
// is parsed alone, so these schemas also turn what passes into exactly what the table stores.

const INT4_MAX = 2_147_483_647;
/** Emotion confidences must sum to 1.0 within this (spec: "approximately 1.0"). */
export const EMOTION_SUM_TOLERANCE = 0.05;
/** Base64 of one snapshot image: 2 MB decoded at most. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil((2 * 1024 * 1024) / 3) * 4;

// PostgreSQL refuses NUL in text and jsonb; one such item would otherwise fail its whole batch.
const text = storableText;

// ISO 8601 date-time with seconds and a zone (Z or an offset), as the extension's `toISOString()`
// writes it. Checked by one regular expression and integer arithmetic: zod's datetime check plus a
// Date round trip cost most of a 1,000-item batch's validation time (see test/bench/ingest.ts).
const ISO_TIMESTAMP =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Stored as sent: PostgreSQL reads the same ISO 8601 form into `timestamptz`. */
export const isoTimestamp = z
  .string()
  .refine(isIsoTimestamp, 'Invalid ISO 8601 timestamp (with Z or an offset)')
  .meta({ format: 'date-time' });

function isIsoTimestamp(value: string): boolean {
  const match = ISO_TIMESTAMP.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  return year >= 1970 && Number(match[3]) <= days;
}

const int4 = z.number().int().min(0).max(INT4_MAX);
const unit = z.number().min(0).max(1);

export const EVENT_TYPES = ['click', 'scroll', 'input', 'focus', 'blur', 'navigation', 'error'] as const;

export const eventItem = z.object({
  eventType: z.enum(EVENT_TYPES),
  targetSelector: text(1000).min(1),
  timestamp: isoTimestamp,
  x: z.number().optional(),
  y: z.number().optional(),
  scrollY: z.number().optional(),
  inputLength: int4.optional(),
  viewport: z.object({ width: int4.min(1), height: int4.min(1) }).optional(),
});
export type EventItem = z.output<typeof eventItem>;

const emotions = z
  .record(text(50).min(1), unit)
  .refine((value) => Object.keys(value).length > 0, 'must name at least one emotion')
  .refine((value) => Object.keys(value).length <= 50, 'must name at most 50 emotions')
  .refine(
    (value) =>
      Math.abs(Object.values(value).reduce((sum, score) => sum + score, 0) - 1) <= EMOTION_SUM_TOLERANCE,
    `confidences must sum to 1.0 (within ${EMOTION_SUM_TOLERANCE})`,
  );

export const facialItem = z.object({
  frameIndex: int4,
  timestamp: isoTimestamp,
  emotions,
  attentionScore: unit,
  gazeX: unit.optional(),
  gazeY: unit.optional(),
});
export type FacialItem = z.output<typeof facialItem>;

/** A snapshot for the facial engine: the frame's own measures plus the image, instead of emotions. */
export const snapshotItem = facialItem.omit({ emotions: true }).extend({
  image: z.base64().min(1).max(MAX_IMAGE_BASE64_CHARS),
});
export type SnapshotItem = z.output<typeof snapshotItem>;

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;

export const voiceItem = z
  .object({
    segmentIndex: int4,
    startTime: isoTimestamp,
    endTime: isoTimestamp,
    transcript: text(10_000),
    sentiment: z.enum(SENTIMENTS),
    sentimentScore: z.number().min(-1).max(1),
    hesitationCount: int4.optional(),
    wordsPerMinute: z.number().min(0).optional(),
  })
  .refine((item) => Date.parse(item.endTime) >= Date.parse(item.startTime), {
    path: ['endTime'],
    message: 'must not be before startTime',
  });
export type VoiceItem = z.output<typeof voiceItem>;
