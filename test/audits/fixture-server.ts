import { readFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { actRulesDir } from '../bench/act/catalogue.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
/** The conformance benchmark's pages, served under /conformance/ (test/bench/audit-conformance.ts). */
const CONFORMANCE = fileURLToPath(new URL('../bench/audit-conformance/pages/', import.meta.url));

export interface FixtureServer {
  /** `http://127.0.0.1:<port>`: the origin the audits are allowed to reach. */
  readonly url: string;
  /** `127.0.0.1:<port>`, for AUDIT_ALLOWED_HOSTS. */
  readonly hostPort: string;
  /** `localhost:<port>`: the same server as another origin (`{{CROSS_ORIGIN}}`), for AUDIT_ALLOWED_HOSTS. */
  readonly crossOriginHostPort: string;
  /** Every request the server has had so far: its path and query, the Host it named, its headers. */
  requests(): readonly SeenRequest[];
  /** How many requests for `?hold=<gate>` are waiting. */
  held(gate: string): number;
  /** Answers the waiting `?hold=<gate>` requests, and every later one, at once. */
  release(gate: string): void;
  stop(): Promise<void>;
}

export interface SeenRequest {
  readonly path: string;
  readonly host: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** `/members.html` is served only to a request carrying both (an audit behind a login); else 401. */
export const MEMBER_CREDENTIALS = {
  header: ['X-Member-Key', 'header-secret-7Rk2'],
  cookie: ['member', 'cookie-secret-4Qx9'],
} as const;

/**
 * Serves test/audits/fixtures over HTTP on 127.0.0.1, the way a real site would be audited, plus:
 * - `{{CROSS_ORIGIN}}` in a page becomes `http://localhost:<port>`: the same server, another origin;
 *   `{{ORIGIN}}` becomes `http://127.0.0.1:<port>`, the audited origin (for a page of the other);
 * - `/redirect?to=<url>` answers 302 to that URL; `/hang-up` closes the connection unanswered;
 * - `/never-responds` never answers; any page with `?hold=<gate>` waits until `release(gate)`;
 * - `/many-links.html?count=<n>` is a page with n links after a skip link, ending with JUMPED_PAST;
 * - `/many-issues.html?count=<n>` is a page with n images without alt (critical) and minor issues;
 * - `/conformance/<page>` is a page of the conformance benchmark (test/bench/audit-conformance/pages);
 * - `/WAI/<path>` is a file of the W3C ACT Rules' test cases (actRulesDir()), as w3.org serves them;
 * - `/members.html` answers a sign-in page (401) unless the request carries MEMBER_CREDENTIALS.
 */
export async function startFixtureServer(): Promise<FixtureServer> {
  const waiting = new Map<string, (() => void)[]>();
  const open = new Set<string>();
  let origin = '';

  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fixtures');
    seen.push({
      path: url.pathname + url.search,
      host: request.headers.host ?? '',
      headers: { ...request.headers },
    });
    if (url.pathname === '/members.html' && !isMember(request.headers)) {
      response
        .writeHead(401, { 'Content-Type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html lang="en"><title>Sign in</title><main><h1>Sign in</h1></main></html>');
      return;
    }
    if (url.pathname === '/redirect') {
      response.writeHead(302, { Location: url.searchParams.get('to') ?? '/' }).end();
      return;
    }
    if (url.pathname === '/never-responds') return;
    if (url.pathname === '/hang-up') {
      request.socket.destroy();
      return;
    }
    if (url.pathname === '/many-links.html') {
      html(response, manyLinks(Number(url.searchParams.get('count') ?? 200)));
      return;
    }
    if (url.pathname === '/many-issues.html') {
      html(response, manyIssues(Number(url.searchParams.get('count') ?? 60)));
      return;
    }
    if (url.pathname.startsWith('/WAI/')) {
      void serveAsIs(actRulesDir(), url.pathname.slice('/WAI'.length), response);
      return;
    }
    const gate = url.searchParams.get('hold');
    const serve = () => void serveFile(url.pathname, response, origin);
    if (gate && !open.has(gate)) waiting.set(gate, [...(waiting.get(gate) ?? []), serve]);
    else serve();
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  return {
    url: origin,
    hostPort: `127.0.0.1:${port}`,
    crossOriginHostPort: `localhost:${port}`,
    requests: () => seen,
    held: (gate) => waiting.get(gate)?.length ?? 0,
    release(gate) {
      open.add(gate);
      for (const serve of waiting.get(gate) ?? []) serve();
      waiting.delete(gate);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function isMember(headers: SeenRequest['headers']): boolean {
  const [header, key] = MEMBER_CREDENTIALS.header;
  const [cookie, value] = MEMBER_CREDENTIALS.cookie;
  const cookies = String(headers.cookie ?? '').split(/;\s*/);
  return headers[header.toLowerCase()] === key && cookies.includes(`${cookie}=${value}`);
}

async function serveFile(pathname: string, response: ServerResponse, origin: string): Promise<void> {
  let path = normalize(decodeURIComponent(pathname));
  let root = FIXTURES;
  if (path.startsWith('/conformance/')) {
    path = path.slice('/conformance'.length);
    root = CONFORMANCE;
  }
  const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
  if (!file.startsWith(root)) {
    response.writeHead(403).end();
    return;
  }
  // A fixture's pictures (images-of-text/*.svg) byte for byte; pages with the origins filled in.
  if (!/\.html?$/.test(file) && CONTENT_TYPES[extname(file)]) {
    await sendFile(file, response);
    return;
  }
  try {
    const body = (await readFile(file, 'utf8'))
      .replaceAll('{{CROSS_ORIGIN}}', origin.replace('127.0.0.1', 'localhost'))
      .replaceAll('{{ORIGIN}}', origin);
    html(response, body);
  } catch {
    response.writeHead(404, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  }
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.ogg': 'audio/ogg',
  '.vtt': 'text/vtt',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file under `root` byte for byte, typed by its extension (pictures, fonts and media included). */
async function serveAsIs(root: string, pathname: string, response: ServerResponse): Promise<void> {
  let file: string;
  try {
    file = join(root, normalize(decodeURIComponent(pathname)));
  } catch {
    response.writeHead(400).end(); // a malformed escape
    return;
  }
  if (!file.startsWith(root)) {
    response.writeHead(403).end();
    return;
  }
  await sendFile(file, response);
}

/** A file byte for byte, typed by its extension. */
async function sendFile(file: string, response: ServerResponse): Promise<void> {
  try {
    const body = await readFile(file);
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    response.writeHead(200, { 'Content-Type': type }).end(body);
  } catch {
    response.writeHead(404, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  }
}

function html(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(body);
}

/**
 * The last controls of a walk-proving page: focus on the first always moves on to the second, so
 * a keyboard never reaches it. Only a Tab walk that got to the end of the page (a full pass) can
 * report it unreachable; a test asserting exactly that proves the walk did not stop early.
 */
export const JUMPED_PAST = {
  selector: '#jumped-past',
  html: `<p><button type="button" id="jumped-past" onfocus="document.getElementById('after-jump').focus()">Focus never stays here</button>
<button type="button" id="after-jump">The last control</button></p>`,
} as const;

/** A long, clean page but for JUMPED_PAST: a skip link, a navigation of `count` links, the main content. */
function manyLinks(count: number): string {
  const links = Array.from(
    { length: count },
    (_, i) => `<li><a href="#section-${i % 3}">Link number ${i + 1}</a></li>`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Many links</title>
<style>a:focus-visible { outline: 3px solid #1a4f9c; } .skip { position: absolute; left: -999px; } .skip:focus { left: 8px; }</style>
</head><body>
<a class="skip" href="#content">Skip to main content</a>
<nav aria-label="Index"><ul>
${links}
</ul></nav>
<main id="content"><h1>A page with ${count} links</h1>
<h2 id="section-0">One</h2><h2 id="section-1">Two</h2><h2 id="section-2">Three</h2>
${JUMPED_PAST.html}</main>
</body></html>`;
}

/**
 * n critical issues (images without alt, axe's image-alt) and two minor ones: an empty heading
 * (axe's empty-heading, which axe lists before image-alt) and an alt starting "Image of".
 */
function manyIssues(count: number): string {
  const images = Array.from(
    { length: count },
    (_, i) =>
      `<img id="photo-${i}" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="20" height="20" />`,
  ).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Many issues</title></head><body>
<main><h1>A page with ${count} images without alt</h1>
<h2 id="empty-heading"></h2>
<p><img id="image-of" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Image of a lake" width="20" height="20" /></p>
<p>${images}</p></main>
</body></html>`;
}
