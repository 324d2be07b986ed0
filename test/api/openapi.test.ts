import assert from 'node:assert/strict';
import { openApiPath } from '../../api/http/openapi.ts';
import { createStudyBody } from '../../api/jobs/jobs.schema.ts';
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
    for (const [path, method] of mounted) operation(openApiPath(path), method.toLowerCase());
  });

  const errorsOf = (path: string, method: string) =>
    Object.keys(operation(path, method).responses)
      .map(Number)
      .filter((status) => status >= 400);

  it('each route lists the errors it can answer, and no others', () => {
    // Public, no input: a presented credential or origin can still be refused; 503 is its own.
    assert.deepEqual(errorsOf('/api/health', 'get'), [401, 403, 429, 500, 503]);
    // A list: its query can be malformed (400) or invalid (422); no body, so no 409 or 413.
    assert.deepEqual(errorsOf('/api/jobs', 'get'), [400, 401, 403, 422, 429, 500]);
    assert.deepEqual(errorsOf('/api/jobs/{id}', 'get'), [401, 403, 404, 429, 500]);
    assert.deepEqual(errorsOf('/api/jobs', 'post'), [400, 401, 403, 413, 422, 429, 500]);
    assert.deepEqual(errorsOf('/api/jobs/{id}', 'patch'), [400, 401, 403, 404, 409, 413, 422, 429, 500]);
    // A public route with a body answers 422 too (and 401/403 for a refused credential or origin).
    assert.deepEqual(errorsOf('/api/auth/login', 'post'), [400, 401, 403, 413, 422, 429, 500]);
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
