import { createHash } from 'node:crypto';

/**
 * The fingerprint an Idempotency-Key is stored with: SHA-256 of the validated body in a canonical
 * JSON form. Object keys are sorted at every depth, so a retry that sends the same body with its
 * keys in another order (`splitRatio: {B, A}` for `{A, B}`) is recognised as the same request;
 * array order is kept, because the order of tasks and variants is part of the study.
 */
export function requestHashOf(input: unknown): string {
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, nested: unknown) =>
    nested !== null && typeof nested === 'object' && !Array.isArray(nested)
      ? Object.fromEntries(
          Object.entries(nested as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : nested,
  );
}
