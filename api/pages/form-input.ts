import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import { ApiError } from '../http/errors.ts';
import { formatPath } from '../http/validate.ts';
import type { FieldErrors } from './form-fields.tsx';

/** A posted form's fields as strings (a repeated name keeps its first value). */
export function formValues(ctx: Context): Record<string, string> {
  const body = (ctx.request as { body?: unknown }).body;
  const values: Record<string, string> = {};
  if (!body || typeof body !== 'object') return values;
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof first === 'string') values[name] = first;
  }
  return values;
}

/** Every value posted under `name` (checkboxes send one each), in order. */
export function formList(ctx: Context, name: string): string[] {
  const body = (ctx.request as { body?: unknown }).body;
  if (!body || typeof body !== 'object') return [];
  const value = (body as Record<string, unknown>)[name];
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.filter((item): item is string => typeof item === 'string');
}

/** The fields without the blank ones: an empty optional field is an absent one, as a JSON client would leave it out. */
export function withoutBlanks(fields: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== '',
    ),
  );
}

export type FormResult<T> = { readonly data: T } | { readonly errors: FieldErrors };

/**
 * The request schema of the REST route applied to a form: every field's first problem, each to be
 * shown next to its field, where the API answers only the first (`field: message`) with 422.
 */
export function parseForm<S extends ZodType>(schema: S, input: unknown): FormResult<z.output<S>> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { data: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const name = formatPath(issue.path) || 'form';
    errors[name] ??= issue.message;
  }
  return { errors };
}

/**
 * A command's refusal as form errors: a 422 names its field (`field: message`), shown next to it
 * when the form has that field; anything else the person can act on belongs to the whole form.
 * Errors that are not refusals (500, 503) are not the form's business and go on up.
 */
export function commandErrors(
  error: unknown,
  fields: readonly string[],
): { readonly errors: FieldErrors; readonly status: number } {
  if (!(error instanceof ApiError) || error.status >= 500) throw error;
  const match = /^([A-Za-z0-9_.[\]]+): (.+)$/.exec(error.message);
  const errors =
    error.status === 422 && match && fields.includes(match[1]!)
      ? { [match[1]!]: match[2]! }
      : { form: error.message };
  return { errors, status: error.status };
}
