import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { text } from 'node:stream/consumers';
import { answerClientErrorsInEnvelope } from '../../api/http/client-errors.ts';

describe("requests Node's parser refuses, answered in the envelope", () => {
  let server: Server;
  let port: number;

  before(async () => {
    // The API's server keeps Node's timeouts (checked every 30 s); short ones here show the 408.
    server = createServer(
      { headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 50 },
      (_req, res) => res.end('ok'),
    );
    answerClientErrorsInEnvelope(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });
  after(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  const exchange = async (sent: string) => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(sent);
    try {
      return await text(socket);
    } finally {
      socket.destroy();
    }
  };
  const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

  it('headers that never finish answer 408 in the envelope, and the connection is closed', async () => {
    const answer = await exchange('GET /api/jobs HTTP/1.1\r\nHost: localhost\r\n');
    assert.match(answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/);
    assert.deepEqual(envelopeOf(answer), {
      success: false,
      data: null,
      error: 'Request timed out',
      metadata: null,
    });
  });

  it('a request line that is not HTTP answers 400 in the envelope', async () => {
    const answer = await exchange('NOT A REQUEST\r\n\r\n');
    assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.deepEqual(envelopeOf(answer), {
      success: false,
      data: null,
      error: 'Malformed HTTP request',
      metadata: null,
    });
  });
});
