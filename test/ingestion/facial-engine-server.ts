import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the local engine answers the next requests: the protocol of clients/facial/README.md, or a fault. */
export type EngineBehaviour =
  | {
      readonly kind: 'face';
      readonly emotions: Record<string, number>;
      readonly actionUnits: Record<string, number>;
    }
  | { readonly kind: 'no_face' }
  | { readonly kind: 'error'; readonly status: number }
  | { readonly kind: 'hang' };

/** A local HTTP server speaking the facial engine's protocol, with faults injected on demand. */
export class FacialEngineServer {
  behaviour: EngineBehaviour = { kind: 'no_face' };
  /** The images received, in order (to prove what was sent, and how often). */
  readonly images: string[] = [];
  readonly authorizations: (string | undefined)[] = [];
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/analyze') {
          response.writeHead(404).end();
          return;
        }
        const { image } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { image: string };
        this.images.push(image);
        this.authorizations.push(request.headers.authorization);
        const behaviour = this.behaviour;
        if (behaviour.kind === 'hang') return;
        if (behaviour.kind === 'error') {
          response.writeHead(behaviour.status, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ error: 'model crashed' }));
          return;
        }
        const faces =
          behaviour.kind === 'face'
            ? [{ emotions: behaviour.emotions, actionUnits: behaviour.actionUnits }]
            : [];
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ faces }));
      });
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
