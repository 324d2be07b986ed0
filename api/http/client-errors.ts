import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { failure } from './envelope.ts';

/** What Node's HTTP parser refuses before any middleware runs, as the envelope says it. */
function answerOf(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, message: 'Request line and headers too large (at most 16 KB together)' };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'Request timed out' };
  return { status: 400, message: 'Malformed HTTP request' };
}

/**
 * Node answers a request its parser refuses (a URL or headers over 16 KB, bad framing) with a bare
 * status line; this answers it in the envelope instead, then closes the connection.
 */
export function answerClientErrorsInEnvelope(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, message } = answerOf(error.code);
    const body = JSON.stringify(failure(message));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
