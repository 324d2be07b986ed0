import type { z, ZodType } from 'zod';
import { describeIssue } from '../../lib/validation/validate.ts';

export interface Rejection {
  readonly index: number;
  readonly reason: string;
}

export interface CheckedBatch<T> {
  /** The items that passed, parsed, in batch order. */
  readonly accepted: T[];
  /** Where each accepted item was in the batch. */
  readonly positions: number[];
  readonly rejections: Rejection[];
}

/**
 * Parses every item alone (spec, "Data ingestion"): a bad item is reported with its index and the
 * first violation named by field (`targetSelector: Required`) and never spoils its neighbours.
 */
export function checkBatch<S extends ZodType>(
  schema: S | ((item: unknown) => S),
  batch: readonly unknown[],
): CheckedBatch<z.output<S>> {
  const accepted: z.output<S>[] = [];
  const positions: number[] = [];
  const rejections: Rejection[] = [];
  const schemaOf = typeof schema === 'function' ? schema : () => schema;
  batch.forEach((item, index) => {
    const parsed = schemaOf(item).safeParse(item);
    if (parsed.success) {
      accepted.push(parsed.data);
      positions.push(index);
    } else rejections.push({ index, reason: describeIssue(parsed.error.issues[0]!, 'item') });
  });
  return { accepted, positions, rejections };
}
