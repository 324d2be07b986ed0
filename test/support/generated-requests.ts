// What the generated-request suites share: a route's schemas as JSON Schema, a query object as it
// arrives and as a query string, and one generated request sent and judged (no 5xx but a 503 the
// route documents).
import { z, type ZodType } from 'zod';
import type { RouteDefinition } from '../../api/http/route.ts';
import type { JsonSchema } from './schema-arbitrary.ts';

export const REQUEST_TIMEOUT_MS = 15_000;

export const jsonSchemaOf = (schema: ZodType | undefined): JsonSchema | undefined => {
  if (!schema) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
};

/** A query object as it arrives: each value a string, an array a repeated key, an object its JSON. */
export function queryOnTheWire(value: unknown): Record<string, string | string[]> {
  const wire: Record<string, string | string[]> = {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return wire;
  const text = (item: unknown) =>
    typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item);
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    wire[key] = Array.isArray(item) ? item.map(text) : text(item);
  }
  return wire;
}

/** A query object as a query string (`queryOnTheWire`'s values). */
export function queryString(value: unknown): string {
  const search = new URLSearchParams();
  for (const [key, item] of Object.entries(queryOnTheWire(value))) {
    for (const one of Array.isArray(item) ? item : [item]) search.append(key, one);
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Sends one generated request to `route` with the caller's headers; answers its status, or a
 * failure's description (no answer, or a 5xx the route does not document).
 */
export async function sendGenerated(
  url: string,
  route: RouteDefinition,
  request: { path: string; body: unknown },
  headers: Record<string, string>,
): Promise<{ status?: number; failure?: string }> {
  const { path, body } = request;
  const init: RequestInit = {
    method: route.method,
    headers: { ...headers, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    // A redirect (the OAuth callback's) is an answer: its target is not this service.
    redirect: 'manual',
  };
  if (body !== undefined && route.method !== 'GET') init.body = JSON.stringify(body);
  let status: number;
  try {
    const response = await fetch(`${url}${path}`, init);
    status = response.status;
    await response.arrayBuffer();
  } catch (error) {
    return { failure: `${route.method} ${path}: ${String(error)}` };
  }
  const documented503 = status === 503 && (route.errors ?? []).includes(503);
  if (status >= 500 && !documented503) {
    return {
      status,
      failure: `${route.method} ${path} -> ${status}: ${JSON.stringify(body)?.slice(0, 300)}`,
    };
  }
  return { status };
}
