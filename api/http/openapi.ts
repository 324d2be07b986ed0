import { z, type ZodType } from 'zod';
import type { RouteDefinition } from './route.ts';

type JsonSchema = Record<string, unknown>;

export interface OpenApiInfo {
  readonly title: string;
  readonly version: string;
  readonly serverUrl: string;
}

function jsonSchema(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Malformed body or query',
  401: 'Missing or invalid credentials',
  403: 'Insufficient permission',
  404: 'Resource not found',
  409: 'State precondition not met',
  413: 'Body too large',
  422: 'Validation failed; the message names the first violation',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Internal error',
};

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
  const errors = route.auth === 'user' ? [400, 401, 403, 404, 409, 413, 422, 429, 500] : [400, 404, 429, 500];
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
    security: route.auth === 'user' ? [{ bearerJwt: [] }, { sessionCookie: [] }] : [],
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
        },
      },
      ...Object.fromEntries(
        errors.map((code) => [code, { $ref: `#/components/responses/Error${code}` }] as const),
      ),
    },
  };
}

/** The OpenAPI 3.1 document, built from the same route definitions and zod schemas that serve requests. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], info: OpenApiInfo): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'session' },
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
        Object.entries(STATUS_TEXT).map(([code, description]) => [
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
