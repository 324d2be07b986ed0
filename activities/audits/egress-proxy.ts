import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkHost, hostKey, portOf, type CheckedHost, type UrlPolicy } from '../../lib/url-guard.ts';

/**
 * The only way out of an audit's browser context: every request the page makes (the document,
 * each redirect hop, images, scripts, fetch, popups, websockets) reaches the network through this
 * proxy, which resolves each host once, refuses blocked addresses and connects to the address it
 * checked. Route interception in the page cannot do this: it does not see redirect hops, and a
 * name can resolve to another address between a check and the browser's own lookup.
 */
export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for the context's proxy setting. */
  readonly server: string;
  /** Whether a request to this URL's host and port was refused. */
  wasRefused(url: string): boolean;
  close(): Promise<void>;
}

// Headers about the hop between the browser and the proxy, not for the origin (RFC 9110 7.6.1).
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);
const REFUSED_BODY = 'Refused by the audit egress policy: the address is not publicly accessible\n';
const FORBIDDEN = 'HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n';

export async function startEgressProxy(policy: UrlPolicy): Promise<EgressProxy> {
  const checks = new Map<string, Promise<CheckedHost>>();
  const refused = new Set<string>();
  const sockets = new Set<Duplex>();
  const agent = new Agent({ keepAlive: true });

  /** The checked address for host:port, looked up once per proxy (one proxy per audit). */
  async function admit(hostname: string, port: number): Promise<CheckedHost | null> {
    const key = hostKey(hostname, port);
    let check = checks.get(key);
    if (!check) {
      check = checkHost(hostname, port, policy);
      checks.set(key, check);
    }
    try {
      return await check;
    } catch {
      refused.add(key);
      return null;
    }
  }

  function track(socket: Duplex): void {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const target = absoluteHttpUrl(request.url);
    if (!target) {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Absolute http URL expected\n');
      return;
    }
    const checked = await admit(target.hostname, portOf(target));
    if (!checked) {
      response.writeHead(403, { 'Content-Type': 'text/plain' }).end(REFUSED_BODY);
      return;
    }
    const upstream = httpRequest({
      host: checked.address,
      port: portOf(target),
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: endToEnd(request.rawHeaders),
      setHost: false,
      agent,
    });
    upstream.on('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
      answer.pipe(response);
    });
    // The browser gave up (the audit ended, a fetch was aborted): so does the origin request.
    response.once('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    // The browser sees the failure as its own network error (net::ERR_EMPTY_RESPONSE), as it
    // would without the proxy, rather than a 502 page it would then audit.
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  }

  /** https and websockets: a tunnel to the checked address, or 403. */
  async function tunnel(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = authorityOf(request.url);
    const checked = target && (await admit(target.host, target.port));
    if (!target || !checked) {
      client.end(FORBIDDEN);
      return;
    }
    splice(client, head, checked.address, target.port, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    });
  }

  /** A plain-http websocket sent to the proxy in absolute form (Chromium normally uses CONNECT). */
  async function upgrade(request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const target = absoluteHttpUrl(request.url);
    const checked = target && (await admit(target.hostname, portOf(target)));
    if (!target || !checked) {
      client.end(FORBIDDEN);
      return;
    }
    splice(client, head, checked.address, portOf(target), (origin) => {
      const lines = [`${request.method} ${target.pathname}${target.search} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) {
        if (!/^proxy-/i.test(request.rawHeaders[i]!))
          lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      }
      origin.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  }

  /**
   * Connects to the checked address and, once connected, lets `opened` write what comes first
   * (the CONNECT answer, or the upgrade request), then joins the two sockets until either closes.
   */
  function splice(
    client: Duplex,
    head: Buffer,
    address: string,
    port: number,
    opened: (origin: Socket) => void,
  ): void {
    const origin = connect(port, address);
    track(origin);
    origin.once('connect', () => {
      opened(origin);
      if (head.length) origin.write(head);
      origin.pipe(client);
      client.pipe(origin);
    });
    origin.once('close', () => client.destroy());
    client.once('close', () => origin.destroy());
  }

  const server = createServer((request, response) => void forward(request, response));
  server.on('connection', track);
  server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    void tunnel(request, socket, head);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    void upgrade(request, socket, head);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    server: `http://127.0.0.1:${port}`,
    wasRefused(url) {
      if (!URL.canParse(url)) return false;
      const parsed = new URL(url);
      return refused.has(hostKey(parsed.hostname, portOf(parsed)));
    },
    async close() {
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closing;
    },
  };
}

/** CONNECT's `host:port` (an IPv6 host in brackets); the port is always written there. */
function authorityOf(raw: string | undefined): { host: string; port: number } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:/\s[\]]+):(\d{1,5})$/i.exec(raw ?? '');
  const port = Number(match?.[2]);
  return match && port > 0 && port < 65536 ? { host: match[1]!, port } : null;
}

function absoluteHttpUrl(raw: string | undefined): URL | null {
  if (!raw || !URL.canParse(raw)) return null;
  const url = new URL(raw);
  return url.protocol === 'http:' || url.protocol === 'ws:' ? url : null;
}

/** Raw headers without the hop-by-hop ones, as the flat [name, value, ...] list Node accepts. */
function endToEnd(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}
