import type { Context } from 'koa';
import { ApiError } from '../../lib/errors.ts';

/**
 * The request body exactly as sent, for routes that verify a signature over it (webhooks). No
 * body parser runs on their paths (api/app.ts), so the stream is still unread here.
 */
export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > limitBytes) throw new ApiError('payload_too_large', `Body larger than ${limitBytes} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limitBytes) throw new ApiError('payload_too_large', `Body larger than ${limitBytes} bytes`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
