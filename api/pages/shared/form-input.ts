import type { Context } from 'koa';
import type { z, ZodType } from 'zod';
import { ApiError } from '../../../lib/errors.ts';
import { formatPath } from '../../../lib/validation/validate.ts';
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

/**
 * The rows posted under `prefix-N-field`, in the order of N, leaving out the blank ones (`isBlank`:
 * every field empty, by default): a person fills in the rows they need, and lists in the API are
 * numbered without gaps. At most `max + 1` rows, so the schema can say there are too many.
 */
export function postedRows<F extends string>(
  form: Readonly<Record<string, string>>,
  prefix: string,
  fields: readonly F[],
  max: number,
  isBlank: (row: Record<F, string>, n: number) => boolean = (row) =>
    fields.every((field) => row[field].trim() === ''),
): (Record<F, string> & { readonly n: number })[] {
  const numbers = new Set<number>();
  const named = new RegExp(`^${prefix}-(\\d{1,3})-`);
  for (const name of Object.keys(form)) {
    const row = named.exec(name);
    if (row) numbers.add(Number(row[1]));
  }
  return [...numbers]
    .sort((a, b) => a - b)
    .map((n) => ({
      ...(Object.fromEntries(fields.map((f) => [f, form[`${prefix}-${n}-${f}`] ?? ''])) as Record<F, string>),
      n,
    }))
    .filter((row) => !isBlank(row, row.n))
    .slice(0, max + 1);
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** An optional text field as a JSON client would send it: absent when blank. */
export const blankless = (text: string) => (text.trim() === '' ? undefined : text);

/** A number field as the JSON body would carry it; what is not a number stays text for the schema to refuse. */
export const numberOf = (text: string) => (text === '' ? undefined : NUMBER.test(text) ? Number(text) : text);

/** "Must be a number" at each field (by form name) that holds text which is not a number. */
export function notNumberErrors(fields: Readonly<Record<string, string>>): FieldErrors {
  return Object.fromEntries(
    Object.entries(fields)
      .filter(([, text]) => text !== '' && !NUMBER.test(text))
      .map(([name]) => [name, 'Must be a number']),
  );
}
