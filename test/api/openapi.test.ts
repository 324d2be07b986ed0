import assert from 'node:assert/strict';
import { openApiPath } from '../../api/http/openapi.ts';
import { createStudyBody } from '../../commands/studies/study.schema.ts';
import { startTestApi, type TestApi } from '../support/api.ts';

type Json = Record<string, unknown>;

interface Operation {
  readonly parameters: { name: string; in: string; required: boolean; schema: Json }[];
  readonly requestBody?: { content: { 'application/json': { schema: Json } } };
  readonly responses: Record<string, unknown>;
}

interface OpenApiDocument {
  readonly openapi: string;
  readonly info: { description?: string };
  readonly paths: Record<string, Record<string, Operation>>;
  readonly components: { responses: Record<string, unknown> };
}

// Every error status each route can answer: the shared chain's (401, 403, 429, 500 and 503 on
// every route: the rate limiter's store, the database or Temporal may be unreachable; 400 and 413
// where a JSON body is parsed; 422 with a body or query schema, 400 with a query; 404 with a path
// parameter; 413 on raw-body webhooks) and what its handler raises (409 preconditions, a 404 for
// an id in the body, ...). Read from the handlers; a new route needs its row.
const COMMON = [401, 403, 429, 500, 503] as const;
const JSON_BODY = [...COMMON, 400, 413, 422] as const;
const BODY_WITHOUT_SCHEMA = [...COMMON, 400, 413] as const;
const QUERY = [...COMMON, 400, 422] as const;
const BY_ID = [...COMMON, 404] as const;
const BODY_BY_ID = [...JSON_BODY, 404] as const;
const ROUTE_ERRORS: Readonly<Record<string, readonly number[]>> = {
  'GET /api/health': [...COMMON],
  'GET /api/health/live': [...COMMON],
  'POST /api/auth/register': [...JSON_BODY, 409],
  'POST /api/auth/login': JSON_BODY,
  'POST /api/auth/refresh': BODY_WITHOUT_SCHEMA,
  'POST /api/auth/logout': BODY_WITHOUT_SCHEMA,
  'GET /api/auth/me': COMMON,
  'POST /api/auth/magic-link': JSON_BODY,
  'POST /api/auth/magic-link/verify': JSON_BODY,
  'POST /api/auth/password-reset': JSON_BODY,
  'POST /api/auth/password-reset/confirm': JSON_BODY,
  'GET /api/auth/oauth/:provider': [...QUERY, 404],
  'GET /api/auth/callback': [...QUERY],
  'POST /api/auth/tokens': JSON_BODY,
  'GET /api/auth/tokens': QUERY,
  'DELETE /api/auth/tokens/:id': BY_ID,
  'POST /api/webhook-endpoints': [...JSON_BODY, 409],
  'GET /api/webhook-endpoints': QUERY,
  'GET /api/webhook-endpoints/:id': BY_ID,
  'PATCH /api/webhook-endpoints/:id': BODY_BY_ID,
  'DELETE /api/webhook-endpoints/:id': BY_ID,
  'GET /api/webhook-endpoints/:id/deliveries': [...QUERY, 404],
  'POST /api/auth/messaging-link': [...BODY_WITHOUT_SCHEMA, 409],
  'POST /api/jobs': JSON_BODY,
  'GET /api/jobs': QUERY,
  'GET /api/jobs/:id': BY_ID,
  'GET /api/jobs/:id/results': BY_ID,
  'GET /api/jobs/:id/audit': BY_ID,
  'PATCH /api/jobs/:id': [...BODY_BY_ID, 409],
  'POST /api/sessions': [...JSON_BODY, 404, 409],
  'GET /api/sessions/:id': BY_ID,
  'GET /api/sessions/:id/recording': BY_ID,
  'GET /api/sessions/:id/recording/:chunk': BY_ID,
  'DELETE /api/sessions/:id/recording': BY_ID,
  'PATCH /api/sessions/:id': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/complete': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/analyze': [...BODY_WITHOUT_SCHEMA, 404, 409],
  'GET /api/sessions/:id/notes': BY_ID,
  'PATCH /api/sessions/:id/notes': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/confirm': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/feedback': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/rating': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/test-token': [...BODY_WITHOUT_SCHEMA, 404, 409],
  'POST /api/reports': [...JSON_BODY, 404, 409],
  'GET /api/reports/jobs/:reportJobId': BY_ID,
  'GET /api/reports/:id': [...QUERY, 404],
  'POST /api/ai': [...JSON_BODY, 404, 409],
  'GET /api/ai/:analysisJobId': BY_ID,
  'POST /api/reports/job/:id': [...BODY_BY_ID, 409],
  'GET /api/reports/job/:id': BY_ID,
  'GET /api/admin/testers': QUERY,
  'PATCH /api/admin/testers/:id': [...BODY_BY_ID, 409],
  'GET /api/admin/quiz': [...COMMON, 404],
  'POST /api/admin/quiz': JSON_BODY,
  'PATCH /api/admin/quiz': [...JSON_BODY, 404],
  'POST /api/gamification/evaluate': [...JSON_BODY, 404, 409],
  'GET /api/community/stats': [...COMMON],
  'GET /api/testers/me': [...COMMON, 404],
  'PATCH /api/testers/me': [...JSON_BODY, 404],
  'GET /api/testers/me/quiz': [...COMMON, 404],
  'POST /api/testers/me/quiz/attempts': [...JSON_BODY, 404, 409],
  'GET /api/admin/capacity-reviews': QUERY,
  'POST /api/admin/capacity-reviews/:id': [...BODY_BY_ID, 409],
  'GET /api/outreach/proposals': [...QUERY, 404],
  'POST /api/outreach/proposals/:id/approve': [...BODY_WITHOUT_SCHEMA, 404, 409],
  'POST /api/outreach/proposals/:id/reject': [...BODY_BY_ID, 409],
  'GET /api/outreach/queue': QUERY,
  'POST /api/outreach/:id/edit': [...BODY_BY_ID, 409],
  'POST /api/outreach/:id/approve': [...BODY_WITHOUT_SCHEMA, 404, 409],
  'POST /api/outreach/:id/reject': [...BODY_BY_ID, 409],
  'POST /api/audits/instant': [...JSON_BODY],
  'POST /api/audits/full': JSON_BODY,
  'GET /api/audits': QUERY,
  'GET /api/audits/instant/:auditId': [...QUERY, 404],
  'GET /api/audits/:auditJobId': [...QUERY, 404, 409],
  'POST /api/data/events': [...JSON_BODY, 404, 409],
  'POST /api/data/facial': [...JSON_BODY, 404, 409],
  'POST /api/data/voice': [...JSON_BODY, 404, 409],
  'POST /api/sessions/:id/events': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/snapshots': [...BODY_BY_ID, 409],
  'POST /api/sessions/:id/voice': [...BODY_BY_ID, 409],
  'POST /api/billing/checkout': [...JSON_BODY, 404, 409],
  'POST /api/billing/connect': [...JSON_BODY],
  'POST /api/billing/payout': [...JSON_BODY, 404, 409],
  'GET /api/billing/local-checkout/:id': [...BY_ID, 409],
  'GET /api/billing/local-onboarding/:accountId': [...QUERY, 404],
  // Raw bodies: 413 from reading them; the payment webhook records what it cannot read (no 400/422).
  'POST /api/webhooks/payments': [...COMMON, 413],
  'POST /api/webhooks/scheduling': [...COMMON, 400, 404, 413, 422],
  'POST /api/webhooks/messaging': [...COMMON, 400, 413, 422],
  'POST /api/cron/:job': [...BODY_WITHOUT_SCHEMA, 404],
  'GET /api/internal/queues': [...COMMON],
};

describe('GET /api/openapi.json and /api/docs', () => {
  let api: TestApi;
  let document: OpenApiDocument;
  before(async () => {
    api = await startTestApi();
    const response = await fetch(`${api.url}/api/openapi.json`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('Content-Type') ?? '', /application\/json/);
    document = (await response.json()) as OpenApiDocument;
  });
  after(() => api.stop());

  const operation = (path: string, method: string): Operation => {
    const found = document.paths[path]?.[method];
    assert.ok(found, `${method.toUpperCase()} ${path} is documented`);
    return found;
  };

  it('is an OpenAPI 3.1 document', () => {
    assert.match(document.openapi, /^3\.1\.\d+$/);
  });

  it('documents POST and GET /api/jobs, GET and PATCH /api/jobs/{id}, GET /api/health', () => {
    for (const [path, method] of [
      ['/api/jobs', 'post'],
      ['/api/jobs', 'get'],
      ['/api/jobs/{id}', 'get'],
      ['/api/jobs/{id}', 'patch'],
      ['/api/health', 'get'],
    ] as const) {
      operation(path, method);
    }
  });

  it('the study create body schema is derived from the zod schema that validates it', () => {
    const schema = operation('/api/jobs', 'post').requestBody?.content['application/json'].schema as {
      required: string[];
      properties: Record<string, Json>;
    };
    assert.ok(schema, 'POST /api/jobs documents its JSON body');
    assert.deepEqual(Object.keys(schema.properties).sort(), Object.keys(createStudyBody.shape).sort());
    assert.deepEqual([...schema.required].sort(), [
      'compensation',
      'description',
      'prototypeType',
      'prototypeUrl',
      'targeting',
      'tasks',
      'title',
    ]);
    assert.deepEqual(schema.properties.prototypeType!.enum, [
      'design_tool_1',
      'design_tool_2',
      'design_tool_3',
      'url',
    ]);
    const task = (schema.properties.tasks as { items: { required: string[] } }).items;
    assert.deepEqual([...task.required].sort(), ['description', 'order', 'title']);
    const devices = (
      schema.properties.targeting as { properties: { devices: { items: { enum: string[] } } } }
    ).properties.devices.items.enum;
    assert.deepEqual(devices, ['desktop', 'mobile', 'tablet']);
  });

  it('says exactly what validation accepts where a refinement would hide it: codes, a non-empty PATCH, unique kinds', () => {
    const bodyOf = (path: string, method: string) =>
      operation(path, method).requestBody!.content['application/json'].schema as {
        properties: Record<string, Json & { properties?: Record<string, Json> }>;
        minProperties?: number;
      };
    const create = bodyOf('/api/jobs', 'post');
    const countries = (create.properties.targeting!.properties!.countries as { items: { enum: string[] } })
      .items;
    assert.ok(
      countries.enum.includes('GB') && !countries.enum.includes('XX') && !countries.enum.includes('gb'),
    );
    const currency = (create.properties.compensation!.properties!.currency as { enum: string[] }).enum;
    assert.ok(currency.includes('EUR') && !currency.includes('EUX'));
    assert.equal(bodyOf('/api/jobs/{id}', 'patch').minProperties, 1);
    assert.equal(
      (bodyOf('/api/ai', 'post').properties.includeSignals as { uniqueItems?: boolean }).uniqueItems,
      true,
    );
  });

  it('GET /api/jobs documents page and limit (limit at most 100)', () => {
    const parameters = operation('/api/jobs', 'get').parameters;
    const page = parameters.find((parameter) => parameter.name === 'page');
    const limit = parameters.find((parameter) => parameter.name === 'limit');
    assert.equal(page?.in, 'query');
    assert.equal(limit?.in, 'query');
    assert.equal(limit?.required, false);
    assert.equal(limit?.schema.maximum, 100);
  });

  it('the path parameter of /api/jobs/{id} is documented as required', () => {
    const id = operation('/api/jobs/{id}', 'get').parameters.find((parameter) => parameter.name === 'id');
    assert.deepEqual([id?.in, id?.required], ['path', true]);
  });

  it('documents every route definition and every path the router has mounted, each method', () => {
    for (const route of api.api.routes) operation(openApiPath(route.path), route.method.toLowerCase());
    const mounted = api.api.router.stack.flatMap((layer) =>
      layer.methods
        .filter((method) => method !== 'HEAD')
        .map((method) => [String(layer.path), method] as const),
    );
    assert.ok(mounted.length >= api.api.routes.length + 3, 'the documentation endpoints are mounted too');
    // The web pages are HTML for people, listed in docs/pages.md rather than the API document.
    assert.ok(api.api.pages.length > 0 && api.api.pages.every((page) => !page.includes(' /api/')));
    for (const [path, method] of mounted) {
      if (!api.api.pages.includes(`${method} ${path}`)) operation(openApiPath(path), method.toLowerCase());
    }
  });

  const errorsOf = (path: string, method: string) =>
    Object.keys(operation(path, method).responses)
      .map(Number)
      .filter((status) => status >= 400);

  it('each route lists the errors it can answer, and no others', () => {
    // Public, no input: a presented credential or origin can still be refused; a dependency can be down.
    assert.deepEqual(errorsOf('/api/health', 'get'), [401, 403, 429, 500, 503]);
    // A list: its query can be malformed (400) or invalid (422); no body, so no 409 or 413.
    assert.deepEqual(errorsOf('/api/jobs', 'get'), [400, 401, 403, 422, 429, 500, 503]);
    assert.deepEqual(errorsOf('/api/jobs/{id}', 'get'), [401, 403, 404, 429, 500, 503]);
    assert.deepEqual(errorsOf('/api/jobs', 'post'), [400, 401, 403, 413, 422, 429, 500, 503]);
    assert.deepEqual(errorsOf('/api/jobs/{id}', 'patch'), [400, 401, 403, 404, 409, 413, 422, 429, 500, 503]);
    // A public route with a body answers 422 too (and 401/403 for a refused credential or origin).
    assert.deepEqual(errorsOf('/api/auth/login', 'post'), [400, 401, 403, 413, 422, 429, 500, 503]);
  });

  it('every route documents exactly the errors its handler and the shared chain can answer (the table below)', () => {
    const missing = api.api.routes
      .map((route) => `${route.method} ${route.path}`)
      .filter((key) => !(key in ROUTE_ERRORS));
    assert.deepEqual(missing, [], 'a new route needs its row in ROUTE_ERRORS');
    const routes = new Set(api.api.routes.map((route) => `${route.method} ${route.path}`));
    assert.deepEqual(
      Object.keys(ROUTE_ERRORS).filter((key) => !routes.has(key)),
      [],
      'ROUTE_ERRORS names only existing routes',
    );
    for (const route of api.api.routes) {
      const key = `${route.method} ${route.path}`;
      assert.deepEqual(
        errorsOf(openApiPath(route.path), route.method.toLowerCase()),
        [...(ROUTE_ERRORS[key] ?? [])].sort((a, b) => a - b),
        key,
      );
    }
  });

  it('documents the service credentials as security schemes on the routes that take them', () => {
    const schemes = (document.components as unknown as { securitySchemes: Record<string, Json> })
      .securitySchemes;
    assert.deepEqual(schemes.webhookSecret, {
      type: 'apiKey',
      in: 'header',
      name: 'x-webhook-secret',
      description: schemes.webhookSecret!.description,
    });
    assert.equal(schemes.cronSecret?.scheme, 'bearer');
    assert.deepEqual([schemes.serviceToken?.in, schemes.serviceToken?.name], ['header', 'Authorization']);
    const securityOf = (path: string, method: string) =>
      (operation(path, method) as unknown as { security: Record<string, string[]>[] }).security;
    assert.deepEqual(securityOf('/api/webhooks/messaging', 'post'), [{ webhookSecret: [] }]);
    assert.deepEqual(securityOf('/api/cron/{job}', 'post'), [{ cronSecret: [] }]);
    assert.deepEqual(securityOf('/api/internal/queues', 'get'), [{ serviceToken: [] }]);
    assert.deepEqual(securityOf('/api/health', 'get'), []);
  });

  it('every listed error refers to a described response, and 405 is described for the whole document', () => {
    for (const methods of Object.values(document.paths)) {
      for (const { responses } of Object.values(methods)) {
        for (const [status, response] of Object.entries(responses)) {
          if (Number(status) < 400) continue;
          assert.deepEqual(response, { $ref: `#/components/responses/Error${status}` });
          assert.ok(document.components.responses[`Error${status}`], `Error${status} is described`);
        }
      }
    }
    assert.ok(document.components.responses.Error405);
    assert.match(document.info.description ?? '', /405 with an `Allow` header/);
  });

  it('documents the error answers of authenticated routes, 401 and 422 among them', () => {
    const responses = operation('/api/jobs', 'post').responses;
    for (const status of ['201', '400', '401', '403', '413', '422', '429', '500']) {
      assert.ok(status in responses, `status ${status} documented`);
    }
  });

  it('/api/docs serves an HTML page whose assets load', async () => {
    const response = await fetch(`${api.url}/api/docs`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('Content-Type') ?? '', /text\/html/);
    const html = await response.text();
    assert.match(html, /\/api\/openapi\.json/);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(
      assets.some((asset) => asset.endsWith('.js')) && assets.some((asset) => asset.endsWith('.css')),
    );
    for (const asset of assets) {
      const loaded = await fetch(new URL(asset, `${api.url}/api/docs`));
      assert.equal(loaded.status, 200, asset);
      assert.ok((await loaded.arrayBuffer()).byteLength > 1000, `${asset} has content`);
    }
  });

  it('an unknown docs asset answers 404 in the envelope', async () => {
    const response = await api.request('GET', '/api/docs/secrets.txt');
    assert.equal(response.status, 404);
    assert.equal(response.body.success, false);
  });
});
