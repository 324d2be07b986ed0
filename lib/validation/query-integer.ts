import { z } from 'zod';

const DECIMAL_INTEGER = /^-?[0-9]+$/;

export interface IntegerBounds {
  readonly min?: number;
  readonly max?: number;
}

/**
 * An integer query parameter written in plain decimal digits. `z.coerce.number()` would also read
 * `1e2`, `0x10`, `0b1`, ` 7` or an empty value; those stay strings here and fail as malformed (400),
 * while a well-written integer outside the bounds fails its rule (422). The bounds live on the
 * number itself so that the OpenAPI document shows them.
 */
export function queryInteger({ min, max }: IntegerBounds = {}) {
  let integer = z
    .number({
      error: (issue) => (issue.code === 'invalid_type' ? 'Expected an integer in decimal digits' : undefined),
    })
    .int();
  if (min !== undefined) integer = integer.min(min);
  if (max !== undefined) integer = integer.max(max);
  return z.preprocess(
    (raw) => (typeof raw === 'string' && DECIMAL_INTEGER.test(raw) ? Number(raw) : raw),
    integer,
  );
}
