import { z, type ZodType } from 'zod';
import { ApiError } from '../errors.ts';

// Zod's default for a missing value names types; the spec's form is `tasks[0].title: Required`.
z.config({
  customError: (issue) =>
    // An enum reports a missing value as invalid_value rather than invalid_type.
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined
      ? 'Required'
      : undefined,
});

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out;
}

/** The spec's 422 message: the first violation, named by its path. */
export function describeIssue(issue: z.core.$ZodIssue, root = 'body'): string {
  return `${formatPath(issue.path) || root}: ${issue.message}`;
}

export function validateBody<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError('validation_failed', describeIssue(parsed.error.issues[0]!));
}

/** A request header, named in the 422 as `Idempotency-Key: Must not be empty`. */
export function validateHeader<S extends ZodType>(name: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ApiError('validation_failed', describeIssue(parsed.error.issues[0]!, name));
}

/**
 * Query strings: a value that cannot be read as its type (letters or `1e2` for an integer, a
 * repeated single-valued key) is a malformed query (400); a missing required parameter, or a
 * readable value outside its rules, is 422 naming the parameter.
 */
export function validateQuery<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const message = describeIssue(issue, 'query');
  if (issue.code === 'invalid_type' && valueAt(value, issue.path) !== undefined)
    throw new ApiError('malformed_request', `Malformed query parameter ${message}`);
  throw new ApiError('validation_failed', message);
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}
