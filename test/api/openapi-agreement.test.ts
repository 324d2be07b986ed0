import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { ZodType } from 'zod';
import type { RouteDefinition } from '../../api/http/route.ts';
import { openApiPath } from '../../api/http/openapi.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { queryOnTheWire } from '../support/generated-requests.ts';
import { arbitraryOf, validValueOf, type JsonSchema } from '../support/schema-arbitrary.ts';

// The OpenAPI document and the validation behind it say the same thing: a body the document's
// schema accepts passes validation, and a body validation accepts is one the document's schema
// accepts (checked by an independent JSON Schema validator with formats). A fuzzer reading the
// document, or a client generated from it, then meets no surprise. Seeded, so a failure repeats.
const SEED = 20_261_129;
const RUNS = 150;

/** One example per route of a body the two disagree on, and how many there were. */
class Disagreements {
  private readonly byRoute = new Map<string, { count: number; example: string }>();
  add(route: RouteDefinition, value: unknown, why: string): void {
    const key = `${route.method} ${route.path}`;
    const seen = this.byRoute.get(key);
    if (seen) seen.count += 1;
    else this.byRoute.set(key, { count: 1, example: `${JSON.stringify(value).slice(0, 300)} -> ${why}` });
  }
  found(): string[] {
    return [...this.byRoute].map(([key, { count, example }]) => `${key} (${count}): ${example}`);
  }
}

/** What validation said, one issue after another. */
const issuesText = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`).join('; ');

/** A route's validation and the document's schema for the same input. */
interface Case {
  readonly route: RouteDefinition;
  readonly validation: ZodType;
  readonly schema: JsonSchema;
}

/**
 * Generated values (anything the schema's shape allows, and values valid by it) that validation
 * accepts and the document's schema refuses, checked by Ajv with `ajv`'s options; `sent` turns a
 * value into what the route receives.
 */
function acceptedButUndocumented(
  cases: readonly Case[],
  ajv: Ajv2020,
  sent: (value: unknown) => unknown = (value) => value,
): string[] {
  addFormats.default(ajv);
  const undocumented = new Disagreements();
  for (const { route, validation, schema } of cases) {
    const check = ajv.compile(schema);
    fc.assert(
      fc.property(fc.oneof(arbitraryOf(schema), validValueOf(schema)), (value) => {
        const received = sent(value);
        // Coercion rewrites what it checks: the copy is checked, the received value reported.
        if (validation.safeParse(received).success && !check(structuredClone(received))) {
          undocumented.add(route, received, ajv.errorsText(check.errors));
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }
  return undocumented.found();
}

/**
 * Rules JSON Schema cannot state (one field against another, a registry lookup): validation may
 * refuse a body the schema allows for one of these only, and only where the document says the rule
 * in words (the phrase, in a description of the body).
 */
const RULES_IN_WORDS: readonly { readonly message: RegExp; readonly phrase: string }[] = [
  {
    message: /tasks are listed in order and numbered from 1 without gaps$/,
    phrase: 'numbered from 1 without gaps',
  },
  { message: /^Must be the id of one of the options$/, phrase: 'the id of one of the options' },
  { message: /^Option id .* is used twice$/, phrase: 'unique within a question' },
  { message: /^Must be after startsAt$/, phrase: 'Must be after startsAt' },
  {
    message: /^Only when the task ends \(completed or abandoned\)$/,
    phrase: '(completed or abandoned only)',
  },
  { message: /^Only when the task is abandoned$/, phrase: '(abandoned only)' },
  { message: /^Give either status or task, not both and not neither$/, phrase: 'Either status or task' },
  { message: /^Decided twice$/, phrase: 'Each note decided once' },
  { message: /with a registered language/, phrase: 'with a registered language' },
  { message: /^An enabled A\/B test needs at least 2 variants$/, phrase: 'at least 2 variants' },
  { message: /^Variant labels must be unique$/, phrase: 'with unique labels' },
  {
    message: /^(Not a variant label|Required for every variant)$/,
    phrase: 'a share for every variant label and no other',
  },
  { message: /^Proportions must sum to 1\.0/, phrase: 'the shares summing to 1.0' },
  { message: /^min must not exceed max$/, phrase: 'min must not exceed max' },
  { message: /^At most 2 decimal places$/, phrase: 'with at most 2 decimal places' },
];

interface Operation {
  readonly requestBody?: { content: Record<string, { schema: JsonSchema }> };
  readonly parameters?: { name: string; in: string; required: boolean; schema: JsonSchema }[];
}

describe('the OpenAPI document and validation agree on every request body and query', function () {
  this.timeout(120_000);
  let api: TestApi;
  let paths: Record<string, Record<string, Operation>>;
  before(async () => {
    api = await startTestApi();
    const response = await fetch(`${api.url}/api/openapi.json`);
    paths = ((await response.json()) as { paths: typeof paths }).paths;
  });
  after(() => api?.stop());

  const documented = (route: RouteDefinition): JsonSchema | undefined =>
    paths[openApiPath(route.path)]?.[route.method.toLowerCase()]?.requestBody?.content['application/json']
      ?.schema;
  const withBodies = () =>
    api.api.routes.flatMap((route) => {
      const schema = route.body ? documented(route) : undefined;
      return route.body && schema ? [{ route, validation: route.body, schema }] : [];
    });

  it('documents the body of every route that validates one', () => {
    const missing = api.api.routes.filter((route) => route.body && !documented(route));
    assert.deepEqual(
      missing.map((route) => `${route.method} ${route.path}`),
      [],
    );
    assert.ok(withBodies().length > 30, `${withBodies().length} routes with bodies`);
  });

  it('validation accepts every body the document allows', () => {
    const refused = new Disagreements();
    for (const { route, validation, schema } of withBodies()) {
      fc.assert(
        fc.property(validValueOf(schema), (value) => {
          const parsed = validation.safeParse(value);
          const words = JSON.stringify(schema);
          const unstated = parsed.error?.issues.filter(
            (issue) =>
              !RULES_IN_WORDS.some((rule) => rule.message.test(issue.message) && words.includes(rule.phrase)),
          );
          if (unstated?.length) {
            refused.add(route, value, issuesText(unstated));
          }
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    assert.deepEqual(refused.found(), []);
  });

  it('the document allows every body validation accepts', () => {
    assert.deepEqual(acceptedButUndocumented(withBodies(), new Ajv2020({ strict: false })), []);
  });
  const withQueries = () =>
    api.api.routes.flatMap((route) => {
      const documentedParameters = (
        paths[openApiPath(route.path)]?.[route.method.toLowerCase()]?.parameters ?? []
      ).filter((parameter) => parameter.in === 'query');
      if (!route.query || !documentedParameters.length) return [];
      const schema: JsonSchema = {
        type: 'object',
        properties: Object.fromEntries(
          documentedParameters.map((parameter) => [parameter.name, parameter.schema]),
        ),
        required: documentedParameters
          .filter((parameter) => parameter.required)
          .map((parameter) => parameter.name),
      };
      return [{ route, validation: route.query, schema }];
    });

  it('validation accepts every query the document allows, as a query string carries it', () => {
    const refused = new Disagreements();
    assert.ok(withQueries().length >= 10, `${withQueries().length} routes with queries`);
    for (const { route, validation, schema } of withQueries()) {
      fc.assert(
        fc.property(validValueOf(schema), (value) => {
          const wire = queryOnTheWire(value);
          const parsed = validation.safeParse(wire);
          if (!parsed.success) refused.add(route, wire, issuesText(parsed.error.issues));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
    assert.deepEqual(refused.found(), []);
  });

  it('the document allows every query validation accepts (its values read as the types it names)', () => {
    const ajv = new Ajv2020({ strict: false, coerceTypes: 'array' });
    assert.deepEqual(acceptedButUndocumented(withQueries(), ajv, queryOnTheWire), []);
  });
});
