import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { ApiError } from '../../lib/errors.ts';
import { readRawBody } from '../../api/http/raw-body.ts';

/** Just what readRawBody reads of a Koa context: the Content-Length header and the request stream. */
function contextOf(chunks: readonly Buffer[], contentLength?: number): Context {
  const req = Readable.from(chunks);
  const get = (name: string) =>
    name.toLowerCase() === 'content-length' && contentLength !== undefined ? String(contentLength) : '';
  return { get, req } as unknown as Context;
}

async function refusal(run: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await run;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return { status: error.status, message: error.message };
  }
  assert.fail('expected a refusal');
}

describe('readRawBody (webhook bodies, read unparsed for their signatures)', () => {
  const LIMIT = 1024;

  it('answers the exact bytes received, across chunks', async () => {
    const chunks = [Buffer.from('{"a": '), Buffer.from([0xe2, 0x82]), Buffer.from([0xac]), Buffer.from('}')];
    const body = await readRawBody(contextOf(chunks), LIMIT);
    assert.deepEqual(body, Buffer.concat(chunks));
  });

  it('takes a body of exactly the limit', async () => {
    const body = await readRawBody(contextOf([Buffer.alloc(LIMIT, 1)], LIMIT), LIMIT);
    assert.equal(body.length, LIMIT);
  });

  it('refuses a declared Content-Length over the limit with 413 before reading anything', async () => {
    const ctx = contextOf([Buffer.alloc(10)], LIMIT + 1);
    assert.deepEqual(await refusal(readRawBody(ctx, LIMIT)), {
      status: 413,
      message: `Body larger than ${LIMIT} bytes`,
    });
    assert.equal(ctx.req.readableDidRead, false, 'the stream was left unread');
  });

  it('refuses an undeclared (chunked) body with 413 once it grows over the limit', async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(300, 1));
    assert.deepEqual(await refusal(readRawBody(contextOf(chunks), LIMIT)), {
      status: 413,
      message: `Body larger than ${LIMIT} bytes`,
    });
  });
});
