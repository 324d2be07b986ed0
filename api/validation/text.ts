import { z } from 'zod';

/**
 * A string PostgreSQL can store: it refuses NUL in text and jsonb, so one would fail the write
 * (a 500, or a whole ingestion batch) instead of answering 422 naming the field.
 */
export const storableText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'must not contain NUL characters');
