import { asSystem } from '../../db/doors.ts';
import { insertWebhookEndpoint } from '../../db/repositories/webhooks.ts';
import type { WebhookEventType } from '../../lib/domain.ts';
import { testDatabase } from '../support/database.ts';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST as the receiver saw it. */
export interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  readonly body: {
    id: string;
    type: string;
    created: number;
    organizationId: string;
    data: { object: Record<string, unknown> };
  };
  readonly answeredWith: number | 'nothing';
}

/** How the receiver answers its n-th request (1-based): a status, after a delay, or not at all. */
export type Answer = { readonly status: number; readonly delayMs?: number } | 'hang';

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** What to answer each request from now on (its number, 1-based, and its body); the default answers 200 at once. */
  answer(plan: (n: number, body: Received['body']) => Answer): void;
  /** Resolves once `count` requests have arrived (now or later); rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  stop(): Promise<void>;
}

/** A local HTTP endpoint that keeps every delivery, raw body and headers, and answers as told. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let plan: (n: number, body: Received['body']) => Answer = () => ({ status: 200 });
  let waiters: { count: number; resolve: () => void }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const body = JSON.parse(rawBody.toString('utf8')) as Received['body'];
      const answer = plan(received.length + 1, body);
      received.push({
        headers: request.headers,
        rawBody,
        body,
        answeredWith: answer === 'hang' ? 'nothing' : answer.status,
      });
      const ready = waiters.filter((waiter) => received.length >= waiter.count);
      waiters = waiters.filter((waiter) => received.length < waiter.count);
      for (const waiter of ready) waiter.resolve();
      if (answer === 'hang') return;
      setTimeout(() => response.writeHead(answer.status).end('{}'), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(next) {
      plan = next;
    },
    waitFor(count, timeoutMs = 20_000) {
      if (received.length >= count) return Promise.resolve(received.slice(0, count));
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} deliveries within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received.slice(0, count));
          },
        });
      });
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Registers `url` for the business's organization straight in the table, as the system door
 * would: the tests' receivers listen on loopback, which the API's URL guard refuses.
 */
export async function subscribe(
  business: { readonly organizationId: string; readonly userId: string },
  url: string,
  events: readonly WebhookEventType[],
  secret: string,
): Promise<string> {
  const row = await asSystem(testDatabase(), (tx) =>
    insertWebhookEndpoint(tx, {
      organizationId: business.organizationId,
      createdBy: business.userId,
      url,
      description: '',
      events,
      secret,
    }),
  );
  return row.id;
}
