import { Worker } from 'node:worker_threads';

export interface BurstOptions {
  readonly port: number;
  readonly path: string;
  /** Connections, each one client: every round sends one request on each at the same moment. */
  readonly clients: number;
  /** Measured rounds; one more goes first to warm up. */
  readonly rounds: number;
  /** Each client's own address, sent as X-Forwarded-For (the API trusts one proxy in the bench). */
  readonly forwardedFor: boolean;
}

// The load generator runs on a thread of its own (the machine's other core) and writes prepared
// request bytes to kept-alive sockets, reading only each answer's status and length, so that what
// it measures is the server rather than an HTTP client library. Plain JavaScript: a worker thread
// does not inherit the TypeScript loader.
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const net = require('node:net');
const { port, path, clients, rounds, forwardedFor } = workerData;
const connect = () => new Promise((resolve, reject) => {
  const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
  socket.setNoDelay(true);
  socket.once('error', reject);
});
const requestOf = (client) => Buffer.from(
  'GET ' + path + ' HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAccept: application/json\\r\\n' +
  (forwardedFor ? 'X-Forwarded-For: 10.' + ((client >> 16) & 255) + '.' + ((client >> 8) & 255) + '.' + (client & 255) + '\\r\\n' : '') +
  '\\r\\n');
const exchange = (socket, bytes) => new Promise((resolve, reject) => {
  let received = '';
  const started = performance.now();
  const onData = (chunk) => {
    received += chunk;
    const headEnd = received.indexOf('\\r\\n\\r\\n');
    if (headEnd < 0) return;
    const length = /content-length: *(\\d+)/i.exec(received.slice(0, headEnd));
    if (!length || received.length < headEnd + 4 + Number(length[1])) return;
    socket.off('data', onData);
    const status = received.slice(9, 12);
    if (status === '200') resolve(performance.now() - started);
    else reject(new Error('answered ' + status + ': ' + received.slice(headEnd + 4, headEnd + 300)));
  };
  socket.setEncoding('latin1');
  socket.on('data', onData);
  socket.write(bytes);
});
(async () => {
  const sockets = await Promise.all(Array.from({ length: clients }, connect));
  const requests = sockets.map((_, client) => requestOf(client));
  const latencies = [];
  for (let round = 0; round <= rounds; round += 1) {
    const answered = await Promise.all(sockets.map((socket, client) => exchange(socket, requests[client])));
    if (round > 0) latencies.push(...answered);
  }
  for (const socket of sockets) socket.destroy();
  parentPort.postMessage({ latencies });
})().catch((error) => parentPort.postMessage({ error: String(error) }));
`;

/** Each measured request's latency in ms, as the client saw it (queueing behind the others included). */
export function burstLatencies(options: BurstOptions): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: options });
    worker.once('message', (message: { latencies?: number[]; error?: string }) => {
      void worker.terminate();
      if (message.latencies) resolve(message.latencies);
      else reject(new Error(message.error ?? 'the load generator failed'));
    });
    worker.once('error', reject);
  });
}
