import type { Client } from '@temporalio/client';
import { pino } from 'pino';
import { createApi, type Api } from '../../api/app.ts';
import type { Config } from '../../config/index.ts';
import type { Db } from '../../db/connection.ts';
import { testConfig } from './config.ts';
import { serviceDatabase } from './database.ts';
import { ensureServiceWorker, temporalEnvironment, TEST_TASK_QUEUE } from './temporal.ts';

export interface TestResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: {
    success: boolean;
    data: unknown;
    error: string | null;
    metadata: { page: number; limit: number; total: number } | null;
  };
  readonly text: string;
}

export interface RequestOptions {
  readonly body?: unknown;
  readonly rawBody?: string;
  readonly token?: string;
  readonly headers?: Record<string, string>;
}

export interface TestApi {
  readonly api: Api;
  readonly url: string;
  readonly config: Config;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  stop(): Promise<void>;
}

/**
 * The real API on a free port, over the run's database (logged in as the service, like
 * production) and Temporal server, with the service worker running. Each call builds a fresh app, so in-memory rate-limit counters start at zero.
 */
export async function startTestApi(
  options: {
    env?: NodeJS.ProcessEnv;
    now?: () => Date;
    worker?: boolean;
    temporal?: Client;
    /** Another handle on the service login (for example one that counts queries). */
    db?: Db;
    /** A known port (from `freePort`), for a URL the service must know before it listens. */
    port?: number;
  } = {},
): Promise<TestApi> {
  const config = testConfig({ TEMPORAL_TASK_QUEUE: TEST_TASK_QUEUE, ...options.env });
  const env = await temporalEnvironment();
  if (options.worker !== false) await ensureServiceWorker();
  const api = createApi({
    config,
    db: options.db ?? serviceDatabase(),
    temporal: options.temporal ?? env.client,
    logger: pino({ level: 'silent' }),
    ...(options.now ? { now: options.now } : {}),
  });
  const url = await api.listen(options.port ?? 0, '127.0.0.1');
  return {
    api,
    url,
    config,
    request: apiRequester(url),
    stop: () => api.stop(),
  };
}

/** Requests to the API at `url` as the tests send them: JSON bodies, a bearer token, the envelope parsed. */
export function apiRequester(url: string): TestApi['request'] {
  return async (method, path, { body, rawBody, token, headers = {} } = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    const sent = rawBody ?? (body === undefined ? undefined : JSON.stringify(body));
    if (sent !== undefined) {
      init.body = sent;
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    if (token) (init.headers as Record<string, string>).Authorization = `Bearer ${token}`;
    const response = await fetch(url + path, init);
    const text = await response.text();
    let parsed: TestResponse['body'];
    try {
      parsed = JSON.parse(text) as TestResponse['body'];
    } catch {
      parsed = {
        success: false,
        data: null,
        error: `non-JSON response: ${text.slice(0, 80)}`,
        metadata: null,
      };
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}
