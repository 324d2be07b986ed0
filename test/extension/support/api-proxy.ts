import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does to the next request that matches: `refuse` closes the connection without an
 * answer (the API is down); `lose-answer` lets the API store the request, then closes the
 * connection before the answer reaches the extension.
 */
export type Fault = 'refuse' | 'lose-answer';

export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  readonly origin: string | undefined;
  readonly body: string;
  /** The API's status, or the fault that stood in for it. */
  outcome: number | Fault;
}

export interface ApiProxy {
  /** What the extension is told is the API. */
  readonly url: string;
  /** Every request the extension made, in the order they arrived. */
  readonly requests: ProxiedRequest[];
  /** Faults for the next `POST .../events` requests, one each, in order. */
  failEvents(...faults: Fault[]): void;
  /** Faults for the next task reports (`PATCH /api/sessions/:id` with `task`), one each, in order. */
  failTaskReports(...faults: Fault[]): void;
  stop(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/** A recording HTTP proxy in front of the test API, which can play an outage. */
export async function startApiProxy(apiUrl: string): Promise<ApiProxy> {
  const requests: ProxiedRequest[] = [];
  const faults: Fault[] = [];
  const taskFaults: Fault[] = [];
  const server = createServer((request, response) => void handle(request, response));

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const fault =
      method === 'POST' && path.endsWith('/events')
        ? faults.shift()
        : method === 'PATCH' && body.includes('"task"')
          ? taskFaults.shift()
          : undefined;
    const entry: ProxiedRequest = { method, path, origin: request.headers.origin, body, outcome: fault ?? 0 };
    requests.push(entry);
    if (fault === 'refuse') {
      request.socket.destroy();
      return;
    }
    const headers = Object.entries(request.headers).flatMap(([name, value]) =>
      HOP_BY_HOP.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
    );
    const answer = await fetch(apiUrl + path, { method, headers, ...(body ? { body } : {}) });
    const text = await answer.text();
    if (fault === 'lose-answer') {
      request.socket.destroy();
      return;
    }
    entry.outcome = answer.status;
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') response.setHeader(name, value);
    });
    response.writeHead(answer.status).end(text);
  }

  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failEvents: (...next) => faults.push(...next),
    failTaskReports: (...next) => taskFaults.push(...next),
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
