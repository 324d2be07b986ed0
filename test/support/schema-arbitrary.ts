import fc, { type Arbitrary } from 'fast-check';

/** The parts of a JSON Schema (as zod's `toJSONSchema` writes it) that generation reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  uniqueItems?: boolean;
  minProperties?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Values that have each broken something at the database at some point. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  '2041-11-06T17:03:29-20:51',
  '4111-11-06T17:03:29+14:00',
  "'; drop table users; --",
  '__proto__',
  '9'.repeat(400),
];
const HOSTILE_NUMBERS = [0, -1, 0.5, 1e-300, -1e-300, 1e300, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 3.5e38, 1e-45];

// Mostly plain values, so that whole bodies often pass and the hostile leaf among them reaches
// the handler and the database.
const text = fc.oneof(
  { weight: 16, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
);

function stringOf(schema: JsonSchema): Arbitrary<unknown> {
  const shaped: Arbitrary<unknown>[] = [text];
  if (schema.format === 'uuid') shaped.push(fc.uuid());
  if (schema.format === 'email') shaped.push(fc.emailAddress());
  if (schema.format === 'date-time')
    shaped.push(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()));
  if (schema.format === 'uri') shaped.push(fc.webUrl());
  // A value at its limit with white space around it: over the limit unless trimmed first.
  if (schema.maxLength !== undefined && schema.maxLength <= 10_000)
    shaped.push(fc.constant(` ${'a'.repeat(schema.maxLength)} `));
  return fc.oneof(...shaped);
}

function numberOf(schema: JsonSchema, integer: boolean): Arbitrary<unknown> {
  const inRange = integer
    ? fc.integer({
        min: Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER),
      })
    : fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
      });
  return fc.oneof(
    { weight: 3, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  );
}

/**
 * Values shaped by a JSON Schema most of the time (so they reach past the first check), with
 * hostile strings and numbers in its leaves and, now and then, any JSON value at all.
 */
export function arbitraryOf(schema: JsonSchema, depth = 0): Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 2 });
  if (depth > 6) return anything;
  const shaped = shapedBy(schema, depth);
  return fc.oneof({ weight: 30, arbitrary: shaped }, { weight: 1, arbitrary: anything });
}

function shapedBy(schema: JsonSchema, depth: number): Arbitrary<unknown> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((choice) => arbitraryOf(choice, depth + 1)));
  if (schema.allOf?.length) return arbitraryOf(schema.allOf[0]!, depth + 1);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, inner]) => [key, arbitraryOf(inner, depth + 1)]),
      );
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, depth + 1), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Real ids by property name (`jobId`, `sessionId`, ...): a valid body names what exists. */
export type KnownIds = Readonly<Record<string, string>>;

/**
 * Values a JSON Schema accepts, by construction: lengths, ranges, formats, patterns and enums
 * kept, and a property named like a known id (`jobId`) given that id most of the time, so the
 * request passes validation and reaches the handler with things that exist.
 */
export function validValueOf(schema: JsonSchema, ids: KnownIds = {}, depth = 0): Arbitrary<unknown> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.length) return fc.oneof(...choices.map((choice) => validValueOf(choice, ids, depth + 1)));
  // `allOf` beside a type adds constraints to it (a second pattern); alone, its parts are merged.
  if (schema.allOf?.length && !schema.type)
    return validValueOf(Object.assign({}, ...schema.allOf) as JsonSchema, ids, depth + 1);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = (schema.required ?? []).filter((key) => key in properties);
      const model = Object.fromEntries(
        Object.entries(properties).map(([key, inner]) => {
          const known = ids[key];
          const value = validValueOf(inner, ids, depth + 1);
          return [key, known ? fc.oneof({ weight: 4, arbitrary: fc.constant(known) }, value) : value];
        }),
      );
      // Every optional property present or absent: optional ones are where defaults and branches hide.
      const record = fc.record(model, { requiredKeys: required });
      const least = schema.minProperties ?? 0;
      return least ? record.filter((value) => Object.keys(value).length >= least) : record;
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const bounds = { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)) };
      const item = validValueOf(schema.items ?? {}, ids, depth + 1);
      return schema.uniqueItems
        ? fc.uniqueArray(item, { ...bounds, selector: (value) => JSON.stringify(value) })
        : fc.array(item, bounds);
    }
    case 'string':
      return validStringOf(schema);
    case 'integer':
    case 'number': {
      const integer = type === 'integer';
      const step = integer ? 1 : 0.01;
      const min =
        schema.minimum ?? (schema.exclusiveMinimum === undefined ? 0 : schema.exclusiveMinimum + step);
      const max = Math.max(
        min,
        schema.maximum ??
          (schema.exclusiveMaximum === undefined ? min + 100 : schema.exclusiveMaximum - step),
      );
      return integer
        ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) })
        : fc
            .integer({ min: Math.ceil(min * 100), max: Math.floor(Math.min(max, 1e9) * 100) })
            .map((n) => n / 100);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.constant('value');
  }
}

function validStringOf(schema: JsonSchema): Arbitrary<unknown> {
  const minLength = schema.minLength ?? 0;
  const fits = (value: string) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity);
  const patterns = [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)]
    .filter((pattern): pattern is string => pattern !== undefined)
    .map((pattern) => new RegExp(pattern, 'u'));
  const matches = (value: string) => fits(value) && patterns.every((pattern) => pattern.test(value));
  if (patterns.length && !['email', 'uuid', 'date-time'].includes(schema.format ?? '')) {
    return fc.stringMatching(patterns[0]!).filter(matches);
  }
  if (schema.format === 'uuid') return fc.uuid().filter(matches);
  if (schema.format === 'email')
    return fc
      .oneof(fc.emailAddress(), patterns.length ? fc.stringMatching(patterns[0]!) : fc.emailAddress())
      .filter(matches);
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString())
      .filter(matches);
  if (schema.format === 'uri') return fc.webUrl();
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  const plain = fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABC0123456789'),
    minLength,
    maxLength,
  });
  // White space around the text, and text that is only white space: what trimming validation meets.
  return fc
    .oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: plain.map((text) => ` ${text} `) })
    .filter(matches);
}
