import assert from 'node:assert/strict';
import { z, type ZodType } from 'zod';
import { ITEM_SCHEMA } from '../../commands/ingestion/batch.schema.ts';
import { NO_ROW_ID } from '../../lib/validation/referenced-id.ts';
import type { NumberStorage } from '../../lib/validation/storable.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

// Every value a request schema lets through must be storable (issue: "validation is the
// database's equal"). This walks the schemas of every route in the route table (bodies, queries,
// path parameters, and the ingestion items each batch is checked against) down to their strings
// and numbers, and holds each to what PostgreSQL accepts.

interface Leaf {
  readonly where: string;
  readonly schema: ZodType;
}

type Def = {
  type: string;
  shape?: Record<string, ZodType>;
  innerType?: ZodType;
  element?: ZodType;
  items?: ZodType[];
  rest?: ZodType | null;
  keyType?: ZodType;
  valueType?: ZodType;
  options?: ZodType[];
  left?: ZodType;
  right?: ZodType;
  in?: ZodType;
  getter?: () => ZodType;
  checks?: Array<{ _zod: { def: { check: string; value?: number; format?: string } } }>;
  format?: string;
};
const defOf = (schema: ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The strings, numbers and free-form values a schema accepts, each named by where it sits. */
function leavesOf(schema: ZodType, where: string, ancestors = new Set<ZodType>()): Leaf[] {
  // Only a schema inside itself (a lazy one) stops the walk: one shared by two fields is walked twice.
  if (ancestors.has(schema)) return [];
  const def = defOf(schema);
  const inside = new Set(ancestors).add(schema);
  const walk = (inner: ZodType | null | undefined, at = where) => (inner ? leavesOf(inner, at, inside) : []);
  switch (def.type) {
    case 'string':
    case 'number':
    case 'unknown':
    case 'any':
      return [{ where, schema }];
    case 'object':
      return Object.entries(def.shape!).flatMap(([key, value]) => walk(value, `${where}.${key}`));
    case 'array':
      return walk(def.element, `${where}[]`);
    case 'tuple':
      return [
        ...def.items!.flatMap((item, index) => walk(item, `${where}[${index}]`)),
        ...walk(def.rest, `${where}[]`),
      ];
    case 'record':
      return [...walk(def.keyType, `${where}{key}`), ...walk(def.valueType, `${where}{}`)];
    case 'union':
      return def.options!.flatMap((option) => walk(option));
    case 'intersection':
      return [...walk(def.left), ...walk(def.right)];
    case 'pipe':
      return walk(def.in);
    case 'lazy':
      return walk(def.getter!());
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return walk(def.innerType);
    default:
      // enum, literal, boolean, null, date, transform...: nothing PostgreSQL could refuse.
      return [];
  }
}

const checkValue = (def: Def, check: string) =>
  def.checks?.find((candidate) => candidate._zod.def.check === check)?._zod.def.value;

/** A string the leaf would accept but for one character: as long as its minimum asks. */
function probeWith(leaf: ZodType, character: string): string {
  const def = defOf(leaf);
  const min = checkValue(def, 'min_length') ?? 0;
  return 'a'.repeat(Math.max(0, min - 1)) + character;
}

const storageOf = (leaf: ZodType) =>
  (z.globalRegistry.get(leaf) as { 'x-storage'?: NumberStorage } | undefined)?.['x-storage'];

const isTimestamp = (leaf: ZodType) =>
  defOf(leaf).format === 'datetime' ||
  (z.globalRegistry.get(leaf) as { format?: string } | undefined)?.format === 'date-time';

/** Free-form values that are never stored as sent, with why. */
const FREE_FORM: Readonly<Record<string, string>> = {
  // Each item of a batch is checked alone against its item schema (walked below), not here.
  'POST /api/data/events body.batch[]': 'items',
  'POST /api/data/facial body.batch[]': 'items',
  'POST /api/data/voice body.batch[]': 'items',
  'POST /api/sessions/:id/events body.batch[]': 'items',
  'POST /api/sessions/:id/snapshots body.batch[]': 'items',
  'POST /api/sessions/:id/voice body.batch[]': 'items',
  // Read through its own schema of storable leaves; any other shape is dropped, not stored.
  'POST /api/webhooks/messaging body.callback_query': 'callback query',
};

describe('every value a request schema accepts can be stored (lib/validation/storable.ts)', () => {
  let api: TestApi;
  let leaves: Leaf[];

  before(async () => {
    api = await startTestApi({ worker: false });
    leaves = api.api.routes.flatMap((route) => {
      const name = `${route.method} ${route.path}`;
      return [
        ...(route.body ? leavesOf(route.body, `${name} body`) : []),
        ...(route.query ? leavesOf(route.query, `${name} query`) : []),
        ...(route.params ? leavesOf(route.params, `${name} params`) : []),
      ];
    });
    for (const [kind, schema] of Object.entries(ITEM_SCHEMA))
      leaves.push(...leavesOf(schema, `${kind} item`));
  });
  after(() => api?.stop());

  const ofType = (type: string) => leaves.filter((leaf) => defOf(leaf.schema).type === type);
  /** A referenced id takes any string and stores none: one not of the service's form names no row. */
  const isReferencedId = (leaf: Leaf) =>
    (z.globalRegistry.get(leaf.schema) as { 'x-referenced-id'?: boolean } | undefined)?.[
      'x-referenced-id'
    ] === true;
  const stored = (type: string) => ofType(type).filter((leaf) => !isReferencedId(leaf));

  it('takes any string as a referenced id and hands the command one of the service form', () => {
    const ids = ofType('string').filter(isReferencedId);
    assert.ok(ids.length >= 10, `${ids.length} referenced ids`);
    const createSession = api.api.routes.find(
      (route) => route.method === 'POST' && route.path === '/api/sessions',
    );
    const jobId = (createSession!.body as z.ZodObject<{ jobId: ZodType<string, string> }>).shape.jobId;
    for (const sent of ['', 'a\u0000b', '\ud800', 'study-7', '42'])
      assert.equal(jobId.parse(sent), NO_ROW_ID, JSON.stringify(sent));
    const id = '5F0C7A3E-1B2D-4C5E-8F90-A1B2C3D4E5F6';
    assert.equal(jobId.parse(id), id.toLowerCase());
  });

  it('finds the route table', () => {
    assert.ok(ofType('string').length > 100, `${ofType('string').length} strings`);
    assert.ok(ofType('number').length > 30, `${ofType('number').length} numbers`);
  });

  it('refuses NUL in every string (text and jsonb cannot hold it)', () => {
    const accepting = stored('string').filter(
      (leaf) => leaf.schema.safeParse(probeWith(leaf.schema, '\u0000')).success,
    );
    assert.deepEqual(
      accepting.map((leaf) => leaf.where),
      [],
    );
  });

  it('refuses a lone UTF-16 surrogate in every string (it would be stored as U+FFFD)', () => {
    const accepting = stored('string').filter(
      (leaf) =>
        leaf.schema.safeParse(probeWith(leaf.schema, '\ud800')).success ||
        leaf.schema.safeParse(probeWith(leaf.schema, '\udc00')).success,
    );
    assert.deepEqual(
      accepting.map((leaf) => leaf.where),
      [],
    );
  });

  it('refuses UTC offsets outside -12:00 to +14:00 in every timestamp, and takes those within', () => {
    const timestamps = ofType('string').filter((leaf) => isTimestamp(leaf.schema));
    assert.ok(timestamps.length >= 8, `${timestamps.length} timestamps`);
    const wrong = timestamps.filter(
      (leaf) =>
        leaf.schema.safeParse('2041-11-06T17:03:29-20:51').success ||
        leaf.schema.safeParse('2041-11-06T17:03:29+14:01').success ||
        !leaf.schema.safeParse('2041-11-06T17:03:29+14:00').success ||
        !leaf.schema.safeParse('2041-11-06T17:03:29-12:00').success,
    );
    assert.deepEqual(
      wrong.map((leaf) => leaf.where),
      [],
    );
  });

  it('builds every number from a storage block, and each refuses what its column cannot hold', () => {
    const numbers = ofType('number');
    assert.deepEqual(
      numbers.filter((leaf) => storageOf(leaf.schema) === undefined).map((leaf) => leaf.where),
      [],
      'numbers without a storage block (lib/validation/storable.ts)',
    );
    const beyond: Record<NumberStorage, number[]> = {
      integer: [2 ** 31, -(2 ** 31) - 1, 0.5],
      bigint: [0.5],
      numeric: [1e300, -1e300],
      real: [1e-300, -1e-300, 1e39, -1e39],
      double: [],
      jsonb: [],
    };
    const accepting = numbers.flatMap((leaf) =>
      beyond[storageOf(leaf.schema)!]
        .filter((value) => leaf.schema.safeParse(value).success)
        .map((value) => `${leaf.where}: ${value}`),
    );
    assert.deepEqual(accepting, []);
  });

  it('keeps free-form values to JSON whose strings, keys included, are storable, or to items checked alone', () => {
    const free = [...ofType('unknown'), ...ofType('any')];
    const unchecked = free.filter((leaf) => !(leaf.where in FREE_FORM) && storageOf(leaf.schema) !== 'jsonb');
    assert.deepEqual(
      unchecked.map((leaf) => leaf.where),
      [],
    );
    const accepting = free
      .filter((leaf) => storageOf(leaf.schema) === 'jsonb')
      .filter((leaf) =>
        [{ note: 'a\u0000' }, { ['\u0000']: 1 }, ['\ud800'], [{ deep: ['\udc00'] }]].some(
          (value) => leaf.schema.safeParse(value).success,
        ),
      );
    assert.deepEqual(
      accepting.map((leaf) => leaf.where),
      [],
    );
    assert.ok(free.some((leaf) => storageOf(leaf.schema) === 'jsonb'));
  });
});
