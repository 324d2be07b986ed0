// The self-hosted facial analysis engine: the protocol of clients/facial/README.md over node:http.
import { timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ANALYZE_PATH } from '../clients/facial/protocol.ts';
import { canonicalEmotions, type FaceObservation } from '../lib/facial/face-scores.ts';

/** An image of 2 MB (the API's limit per snapshot) in base64, in its JSON object, with room to spare. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface FacialEngineOptions {
  /** Faces in an image (decoded bytes), most prominent first; throws UnreadableImageError-like errors. */
  readonly observe: (image: Buffer) => Promise<FaceObservation[]>;
  /** Whether an error of `observe` means the image could not be read (400) rather than a fault (500). */
  readonly isUnreadable: (error: unknown) => boolean;
  /** Required as `Authorization: Token <token>` when set. */
  readonly token: string | undefined;
  /** Resolves once the model is loaded; health answers 503 until then. */
  readonly ready: Promise<void>;
  /** Told of every unexpected error (never of the image). */
  readonly onError?: (error: unknown) => void;
}

const analyzeBody = z.object({ image: z.base64().min(1) });

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

const tooLarge = () => new HttpError(413, 'payload_too_large', `body: at most ${MAX_BODY_BYTES} bytes`);

/**
 * The body, up to the limit. Past it, reading stops without destroying the request (throwing inside
 * `for await` would reset the connection before the 413 could be answered).
 */
function readBody(request: IncomingMessage): Promise<string> {
  if (Number(request.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      request.off('data', onData);
      reject(tooLarge());
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.once('error', reject);
  });
}

function authorised(request: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const given = Buffer.from(request.headers.authorization ?? '');
  const expected = Buffer.from(`Token ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function facialEngineHandler(options: FacialEngineOptions) {
  let isReady = false;
  void options.ready.then(() => (isReady = true)).catch(() => undefined);

  async function analyze(request: IncomingMessage): Promise<unknown> {
    if (!authorised(request, options.token))
      throw new HttpError(401, 'unauthorized', 'Authorization: Token <FACIAL_ENGINE_TOKEN> required');
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? ''))
      throw new HttpError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    let json: unknown;
    try {
      json = JSON.parse(await readBody(request));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, 'bad_request', 'body: not JSON');
    }
    const parsed = analyzeBody.safeParse(json);
    if (!parsed.success)
      throw new HttpError(400, 'bad_request', 'image: required, standard base64 without a data: prefix');
    let faces: FaceObservation[];
    try {
      faces = await options.observe(Buffer.from(parsed.data.image, 'base64'));
    } catch (error) {
      if (options.isUnreadable(error))
        throw new HttpError(400, 'bad_request', 'image: not a readable JPEG, PNG or WebP image');
      throw error;
    }
    // face-api's nets give no Action Units: the protocol's default, an empty map.
    return {
      faces: faces.map((face) => ({ emotions: canonicalEmotions(face.expressions), actionUnits: {} })),
    };
  }

  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const path = (request.url ?? '/').split('?')[0];
    try {
      if (path === ANALYZE_PATH) {
        if (request.method !== 'POST') throw new HttpError(405, 'method_not_allowed', 'POST only');
        send(response, 200, await analyze(request));
      } else if (path === '/health') {
        if (request.method !== 'GET' && request.method !== 'HEAD')
          throw new HttpError(405, 'method_not_allowed', 'GET only');
        send(response, isReady ? 200 : 503, { status: isReady ? 'ok' : 'loading' });
      } else {
        throw new HttpError(404, 'not_found', `no such path: ${path}`);
      }
    } catch (error) {
      if (error instanceof HttpError) {
        if (error.status === 405) response.setHeader('allow', path === ANALYZE_PATH ? 'POST' : 'GET, HEAD');
        send(response, error.status, { error: { code: error.code, message: error.message } });
      } else {
        send(response, 500, {
          error: { code: 'internal_error', message: 'the image could not be analysed' },
        });
      }
      // A body left unread would keep the connection busy; the client learns the answer either way.
      if (!request.complete) request.resume();
    }
  };
}

export interface RunningEngine {
  readonly url: string;
  readonly server: Server;
  stop(): Promise<void>;
}

export async function startFacialEngine(
  options: FacialEngineOptions,
  listen: { host: string; port: number },
): Promise<RunningEngine> {
  const handle = facialEngineHandler(options);
  const server = createServer((request, response) => void handle(request, response));
  server.listen(listen.port, listen.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    server,
    async stop() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
