import { z, type ZodType } from 'zod';
import { testTokenSessionOf } from '../auth/credential-scope.ts';
import { TEST_TOKEN_HEADER } from '../auth/test-tokens.ts';
import { documentedErrors, ERROR_DESCRIPTIONS, type ErrorShape } from './documented-errors.ts';
import type { RouteDefinition, ServiceCredentialScheme } from './route.ts';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly serverUrl: string;
}

function jsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: nonBlankWhereTrimmed,
  }) as JsonSchema;
  return rest;
}

/**
 * A string validation trims before counting its minimum must hold a character that is not
 * white space: said in the document as `pattern: \S`, so a blank one is not offered as valid.
 */
function nonBlankWhereTrimmed(ctx: {
  zodSchema: z.core.$ZodTypes;
  jsonSchema: z.core.JSONSchema.BaseSchema;
}) {
  const { def } = ctx.zodSchema._zod;
  if (def.type !== 'string') return;
  const trims = (def.checks ?? []).some((check) => {
    const inner = check._zod.def;
    return inner.check === 'overwrite' && String((inner as { tx?: unknown }).tx).includes('.trim()');
  });
  const minimum = ctx.jsonSchema.minLength;
  if (!trims || minimum === undefined || minimum < 1) return;
  if (ctx.jsonSchema.pattern === undefined) ctx.jsonSchema.pattern = '\\S';
  else ctx.jsonSchema.allOf = [...(ctx.jsonSchema.allOf ?? []), { pattern: '\\S' }];
}

/** An endpoint that answers outside the envelope: the documentation itself (api/docs/). */
export interface RawEndpoint {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly contentTypes: readonly string[];
  readonly params?: ZodType;
  readonly query?: ZodType;
  /** Statuses its handler answers besides those of its shape (as a route's `errors`). */
  readonly errors?: RouteDefinition['errors'];
}

const CONVENTIONS = [
  'Every answer but the documentation endpoints uses the envelope `{success, data, error, metadata}`.',
  'A path that exists answers 405 with an `Allow` header for a method it does not have, and `OPTIONS`',
  'answers 200 with the same header (a CORS preflight from an allowed origin also gets the',
  'Access-Control headers). An unknown path answers 404.',
].join(' ');

function envelopeOf(data: JsonSchema, paginated: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'data', 'error', 'metadata'],
    properties: {
      success: { const: true },
      data,
      error: { type: 'null' },
      metadata: paginated ? { $ref: '#/components/schemas/PageMetadata' } : { type: 'null' },
    },
  };
}

function parameters(schema: ZodType | undefined, location: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const shape = (schema as unknown as { shape?: Record<string, ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, field]) => ({
    name,
    in: location,
    required: location === 'path' || !field.safeParse(undefined).success,
    schema: jsonSchema(field, 'input'),
  }));
}

function operation(route: RouteDefinition): JsonSchema {
  const status = route.status ?? 200;
  const headerParameters = Object.entries(route.headers ?? {}).map(([name, description]) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
  return {
    summary: route.summary,
    tags: [route.tag],
    security: securityOf(route),
    parameters: [
      ...parameters(route.params, 'path'),
      ...parameters(route.query, 'query'),
      ...headerParameters,
    ],
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [status]: {
        description: 'Success',
        content: {
          'application/json': { schema: envelopeOf(jsonSchema(route.response, 'output'), !!route.paginated) },
          ...Object.fromEntries(
            Object.entries(route.documents ?? {}).map(([type, description]) => [
              type,
              {
                schema: type.endsWith('json')
                  ? { type: 'object', description }
                  : { type: 'string', description },
              },
            ]),
          ),
        },
      },
      ...errorResponses(route),
    },
  };
}

function errorResponses(route: ErrorShape): Record<string, JsonSchema> {
  return Object.fromEntries(
    documentedErrors(route).map((code) => [code, { $ref: `#/components/responses/Error${code}` }]),
  );
}

function rawOperation(endpoint: RawEndpoint): JsonSchema {
  return {
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: [],
    parameters: [...parameters(endpoint.params, 'path'), ...parameters(endpoint.query, 'query')],
    responses: {
      200: {
        description: 'Success (outside the envelope)',
        content: Object.fromEntries(endpoint.contentTypes.map((type) => [type, { schema: {} }])),
      },
      ...errorResponses({
        method: endpoint.method,
        auth: 'public',
        params: endpoint.params,
        query: endpoint.query,
        errors: endpoint.errors,
      }),
    },
  };
}

/** The OpenAPI 3.1 document, built from the same route definitions and zod schemas that serve requests. */
export function buildOpenApiDocument(
  routes: readonly RouteDefinition[],
  info: OpenApiInfo,
  rawEndpoints: readonly RawEndpoint[] = [],
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  for (const endpoint of rawEndpoints) {
    (paths[openApiPath(endpoint.path)] ??= {})[endpoint.method.toLowerCase()] = rawOperation(endpoint);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: CONVENTIONS },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
        testToken: { type: 'apiKey', in: 'header', name: TEST_TOKEN_HEADER },
        ...SERVICE_CREDENTIAL_SCHEMES,
      },
      schemas: {
        PageMetadata: {
          type: 'object',
          required: ['page', 'limit', 'total'],
          properties: { page: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' } },
        },
        ErrorEnvelope: {
          type: 'object',
          required: ['success', 'data', 'error', 'metadata'],
          properties: {
            success: { const: false },
            data: { type: 'null' },
            error: { type: 'string' },
            metadata: { type: 'null' },
          },
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_DESCRIPTIONS).map(([code, description]) => [
          `Error${code}`,
          {
            description,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        ]),
      ),
    },
  };
}

/** The spec's other header methods (api/auth/service-credentials.ts), each off while its variable is unset. */
const SERVICE_CREDENTIAL_SCHEMES: Readonly<Record<ServiceCredentialScheme, JsonSchema>> = {
  webhookSecret: {
    type: 'apiKey',
    in: 'header',
    name: 'x-webhook-secret',
    description:
      'MESSAGING_WEBHOOK_SECRET (the bot API may send it as X-Telegram-Bot-Api-Secret-Token instead)',
  },
  cronSecret: { type: 'http', scheme: 'bearer', description: '`Authorization: Bearer <CRON_SECRET>`' },
  serviceToken: {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Authorization: Token <TOKEN>`, TOKEN one of SERVICE_TOKENS',
  },
};

/**
 * A user route takes a JWT (bearer or cookie); the four a test token opens also take X-Test-Token.
 * A route called by a service names its credential; other public routes take none.
 */
function securityOf(route: RouteDefinition): JsonSchema[] {
  if (route.credential) return [{ [route.credential.scheme]: [] }];
  if (route.auth !== 'user') return [];
  const opensToTestToken = testTokenSessionOf(route.method, route.path.replace(/:(\w+)/g, 'x')) !== undefined;
  return [{ bearerJwt: [] }, { sessionCookie: [] }, ...(opensToTestToken ? [{ testToken: [] }] : [])];
}

/** `/api/jobs/:id` in the router's form is `/api/jobs/{id}` in OpenAPI's. */
export function openApiPath(routerPath: string): string {
  return routerPath.replace(/:(\w+)/g, '{$1}');
}
