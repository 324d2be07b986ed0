import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { RouteDefinition } from '../../api/http/route.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createAdmin, createBusiness, createTester } from '../support/factories.ts';
import { jsonSchemaOf, queryString, sendGenerated } from '../support/generated-requests.ts';
import { arbitraryOf } from '../support/schema-arbitrary.ts';
import { sessionToken } from '../support/tokens.ts';

// Generated requests to every route of the route table, each as a caller the route allows: bodies,
// queries and path parameters shaped by the route's own schemas with hostile values in their
// leaves (NUL, lone surrogates, impossible offsets, numbers no column holds) and now and then any
// JSON at all. No answer may be a 5xx but a 503 the route documents (a dependency this
// environment does not run). Seeded, so a failure repeats; bounded to a few runs per route.
const SEED = 20_261_124;
const RUNS_PER_ROUTE = 40;

interface GeneratedRequest {
  readonly path: string;
  readonly body: unknown;
}

function requestsFor(route: RouteDefinition) {
  const names = route.path.split('/').filter((segment) => segment.startsWith(':'));
  const segment = fc.oneof(
    { weight: 4, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom('full', '0', '%00', '%ZZ', 'a'.repeat(300)) },
  );
  const body = jsonSchemaOf(route.body);
  const query = jsonSchemaOf(route.query);
  return fc
    .record({
      params: fc.tuple(...names.map(() => segment)),
      query: query ? arbitraryOf(query) : fc.constant(undefined),
      body: body ? arbitraryOf(body) : fc.constant(undefined),
    })
    .map(({ params, query, body }): GeneratedRequest => {
      let path = route.path;
      names.forEach((name, index) => {
        const value = params[index]!;
        path = path.replace(name, value.includes('%') ? value : encodeURIComponent(value));
      });
      return { path: `${path}${queryString(query)}`, body };
    });
}

describe('generated requests to every route: never a 5xx (seeded)', function () {
  this.timeout(600_000);
  let api: TestApi;
  before(async () => {
    // Anonymous callers are limited per address (30 a minute): each request comes from its own,
    // behind one trusted proxy, so the public routes are exercised rather than throttled.
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
  });
  after(() => api?.stop());

  /** A fresh caller the route allows, so each route has its own rate-limit budget. */
  async function callerFor(route: RouteDefinition): Promise<string | undefined> {
    if (route.auth === 'public') return undefined;
    const role = route.roles?.[0] ?? 'business';
    if (role === 'admin') return sessionToken(await createAdmin());
    if (role === 'tester') return sessionToken(await createTester());
    return sessionToken((await createBusiness('pro')).claims);
  }

  it('answers every generated request with a status below 500 (or a documented 503)', async () => {
    // Routes behind a service credential or a signature refuse before reading anything.
    const routes = api.api.routes.filter((route) => !route.credential && !route.rawBody);
    assert.ok(routes.length > 60, `${routes.length} routes`);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const token = await callerFor(route);
      await fc.assert(
        fc.asyncProperty(requestsFor(route), async (request) => {
          const headers = {
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            'X-Forwarded-For': `10.9.${(sent >> 8) & 255}.${sent++ & 255}`,
          };
          const { failure } = await sendGenerated(api.url, route, request, headers);
          if (failure) failures.push(failure);
        }),
        { seed: SEED, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
    assert.deepEqual(failures, []);
  });
});
