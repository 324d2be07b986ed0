import { once } from 'node:events';
import { createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the browser sent, as it went over the wire. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  readonly body: Buffer;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>`: the browser's proxy server. */
  readonly url: string;
  /** Every request the browser sent, in order; a TLS tunnel (CONNECT) is listed and refused. */
  readonly requests: SentRequest[];
  stop(): Promise<void>;
}

const readBody = async (message: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const part of message) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

/**
 * A forward HTTP proxy that keeps every request the browser sends (the pages', the extension's
 * worker's and offscreen document's alike) and passes it on. Chromium is pointed at it for every
 * address, loopback included, so nothing it sends escapes the record; an HTTPS tunnel would hide
 * its bodies, so it is recorded and refused.
 */
export async function startForwardProxy(): Promise<ForwardProxy> {
  const requests: SentRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readBody(incoming);
      const url = incoming.url ?? '';
      requests.push({ method: incoming.method ?? 'GET', url, body });
      if (!/^http:\/\//.test(url)) {
        outgoing.writeHead(400).end();
        return;
      }
      const upstream = forward(url, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on('error', () => outgoing.headersSent || outgoing.writeHead(502).end());
      upstream.end(body);
    })();
  });
  server.on('connect', (incoming: IncomingMessage, socket: Socket) => {
    requests.push({ method: 'CONNECT', url: incoming.url ?? '', body: Buffer.alloc(0) });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
