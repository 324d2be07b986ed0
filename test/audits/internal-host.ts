import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A stand-in for an internal service on a private address: it records every path asked of it. */
export interface InternalHost {
  /** `http://127.0.0.1:<port>`: private, and not on the audits' allow-list. */
  readonly url: string;
  readonly hostPort: string;
  /** Paths of the HTTP requests and websocket upgrades that reached it. */
  readonly paths: readonly string[];
  /** TCP connections opened to it, whatever was sent on them. */
  connections(): number;
  stop(): Promise<void>;
}

export async function startInternalHost(): Promise<InternalHost> {
  const paths: string[] = [];
  let connections = 0;
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('internal secret');
  });
  server.on('connection', () => connections++);
  server.on('upgrade', (request, socket) => {
    paths.push(request.url ?? '');
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    paths,
    connections: () => connections,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
