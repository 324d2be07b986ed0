import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface FixtureServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Serves test/audits/fixtures over HTTP on 127.0.0.1, the way a real site would be audited. */
export async function startFixtureServer(): Promise<FixtureServer> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(FIXTURES, path.endsWith('/') ? `${path}index.html` : path);
    if (!file.startsWith(FIXTURES)) {
      response.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body),
      () =>
        response
          .writeHead(404, { 'Content-Type': 'text/html' })
          .end('<!doctype html><title>Not found</title>'),
    );
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
