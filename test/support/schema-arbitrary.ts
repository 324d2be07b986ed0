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
