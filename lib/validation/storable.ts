import { z } from 'zod';

// The building blocks of every request schema: a value that passes one of them can be stored in
// its column, so the database never refuses what validation let through (which would answer 500,
// or fail a whole ingestion batch for one item). test/api/storable-values.test.ts walks every
// route's schemas and holds them to it.

/** A lone UTF-16 surrogate: PostgreSQL would store it as U+FFFD without a word. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether PostgreSQL stores the string exactly as given: no NUL (text and jsonb refuse it), no lone surrogate. */
function isStorableString(value: string): boolean {
  return !value.includes('\u0000') && !LONE_SURROGATE.test(value);
}

/** Every string the API accepts starts here: storable as given (chain `.trim()`, `.max()`, ...). */
export const storableString = () =>
  z
    .string()
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters')
    .refine((value) => !LONE_SURROGATE.test(value), 'must be valid Unicode (it holds a lone surrogate)');

/** A storable string of at most `max` characters. */
export const storableText = (max: number) => storableString().max(max);

/** Whether every string of a JSON value, keys included, is storable (jsonb refuses NUL too). */
function isStorableJson(value: unknown): boolean {
  if (typeof value === 'string') return isStorableString(value);
  if (Array.isArray(value)) return value.every(isStorableJson);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).every(([key, inner]) => isStorableString(key) && isStorableJson(inner));
  return true;
}

/** A free-form JSON value stored as sent (jsonb): any shape, every string storable. */
export const storableJson = () =>
  z
    .unknown()
    .refine(isStorableJson, 'must not contain NUL characters or lone surrogates')
    .meta({ 'x-storage': 'jsonb' });

// ISO 8601 date-time with seconds and a zone (Z or an offset). Checked by one regular expression
// and integer arithmetic: zod's datetime check plus a Date round trip cost most of a 1,000-item
// ingestion batch's validation time (see test/bench/ingest.ts).
const ISO_TIMESTAMP =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,9})?(?:Z|([+-])(\d\d):([0-5]\d))$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** Real UTC offsets run from -12:00 to +14:00; PostgreSQL refuses some beyond them. */
const MIN_OFFSET_MINUTES = -12 * 60;
const MAX_OFFSET_MINUTES = 14 * 60;

function isIsoTimestamp(value: string, minYear: number): boolean {
  const match = ISO_TIMESTAMP.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (year < minYear || Number(match[3]) > days) return false;
  const [, , , , , , sign, offsetHours, offsetMinutes] = match;
  if (!sign) return true;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  return offset >= MIN_OFFSET_MINUTES && offset <= MAX_OFFSET_MINUTES;
}

/**
 * A moment as ISO 8601 with seconds and Z or an offset between -12:00 and +14:00, in year
 * `minYear` or later (default 1). Stored as sent: PostgreSQL reads the same form into `timestamptz`.
 */
export const isoTimestamp = ({ minYear = 1 }: { readonly minYear?: number } = {}) =>
  z
    .string()
    .refine(
      (value) => isIsoTimestamp(value, minYear),
      'Must be an ISO 8601 timestamp with seconds and Z or an offset from -12:00 to +14:00',
    )
    .meta({ format: 'date-time' });

/** The storage a number is validated for (read by the test that walks every route's schemas). */
export type NumberStorage = 'integer' | 'bigint' | 'numeric' | 'real' | 'double' | 'jsonb';

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };
/** The smallest normal and the largest 4-byte float: PostgreSQL refuses a `real` beyond them (but 0). */
const FLOAT4_MIN_NORMAL = 1.1754943508222875e-38;
const FLOAT4_MAX = 3.4028234663852886e38;

/** A whole number for an `integer` column, within `min` and `max` (held to the type's range). */
export const int4 = (min: number = INT4.min, max: number = INT4.max) =>
  z
    .number()
    .int('Must be an integer')
    .min(Math.max(min, INT4.min))
    .max(Math.min(max, INT4.max))
    .meta({ 'x-storage': 'integer' satisfies NumberStorage });

/** A whole number for a `bigint` column (or one kept as text): any safe integer, as JSON carries it. */
export const int8 = () =>
  z
    .number()
    .int('Must be an integer')
    .meta({ 'x-storage': 'bigint' satisfies NumberStorage });

/**
 * A number for a `numeric(precision, scale)` column: fewer than `precision - scale` digits before
 * the point (PostgreSQL rounds what lies beyond `scale` after it).
 */
export const decimal = (precision: number, scale: number) => {
  const bound = 10 ** (precision - scale);
  const message = `Must be less than ${bound.toLocaleString('en')} in size`;
  return z
    .number()
    .gt(-bound, message)
    .lt(bound, message)
    .meta({ 'x-storage': 'numeric' satisfies NumberStorage });
};

/** A number for a `real` column: 0, or between 1.2e-38 and 3.4e38 in size (a 4-byte float). */
export const float4 = (min = -FLOAT4_MAX, max = FLOAT4_MAX) =>
  z
    .number()
    .min(Math.max(min, -FLOAT4_MAX))
    .max(Math.min(max, FLOAT4_MAX))
    .refine(
      (value) => value === 0 || Math.abs(value) >= FLOAT4_MIN_NORMAL,
      'Must be 0 or at least 1.2e-38 in size (a 4-byte float)',
    )
    .meta({ 'x-storage': 'real' satisfies NumberStorage });

/** A number for a `double precision` column (or jsonb): any finite JSON number. */
export const float8 = (storage: 'double' | 'jsonb' = 'double') =>
  z.number().meta({ 'x-storage': storage satisfies NumberStorage });
