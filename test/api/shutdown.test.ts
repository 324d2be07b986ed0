import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startTestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { sessionToken } from '../support/tokens.ts';

describe('api.stop()', () => {
  it('refuses new connections at once but lets an in-flight request finish before it resolves', async () => {
    // The API reads its clock once a request is inside the middleware chain: that is "in flight".
    let arrived!: () => void;
    const inFlight = new Promise<void>((resolve) => (arrived = resolve));
    const api = await startTestApi({
      now: () => {
        arrived();
        return new Date();
      },
    });
    const business = await createBusiness('free');
    const body = JSON.stringify(validStudyBody());
    const half = Math.floor(body.length / 2);

    const { hostname, port } = new URL(api.url);
    const outgoing = request({
      hostname,
      port,
      method: 'POST',
      path: '/api/jobs',
      headers: {
        Authorization: `Bearer ${await sessionToken(business.claims)}`,
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
      },
    });
    const answered = new Promise<{ status: number; text: string; connection?: string }>((resolve, reject) => {
      outgoing.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, text, connection: response.headers.connection }),
        );
        response.on('error', reject);
      });
      outgoing.on('error', reject);
    });
    outgoing.write(body.slice(0, half));
    await inFlight;

    let settled = false;
    const stopped = api.stop().then(() => (settled = true));
    // Turns of the event loop, not a timer: a stop that does not wait would settle within them.
    for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(settled, false, 'stop() resolved while a request was still in flight');
    await assert.rejects(fetch(`${api.url}/api/health`), 'no new connection once stopping');

    // The rest of the body arrives only after shutdown began.
    outgoing.end(body.slice(half));
    const { status, text, connection } = await answered;
    await stopped;

    assert.equal(status, 201, text);
    assert.equal((JSON.parse(text) as { success: boolean }).success, true);
    // The finished request releases its keep-alive connection instead of holding stop() open.
    assert.equal(connection, 'close');
  });
});
