// The service as a cluster for the replicas benchmark: API processes and worker processes of their
// own (api/main.ts and the service worker), each of which can be killed with SIGKILL and started
// again, and a round-robin HTTP proxy in front of the APIs, as a load balancer would stand.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testConfig } from '../../support/config.ts';
import { endProcess, freePort } from '../../support/free-port.ts';
import { temporalEnvironment, workflowBundle } from '../../support/temporal.ts';
import { API_MAIN, started, WORKER_PROCESS } from '../load/service-processes.ts';

/** One process of the cluster: killed at once (`kill9`), or started again as it was (`restart`). */
export interface Member {
  readonly name: string;
  pid(): number | undefined;
  kill9(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function member(name: string, launch: () => Promise<ChildProcess>): Member & { start(): Promise<void> } {
  let child: ChildProcess | undefined;
  return {
    name,
    pid: () => child?.pid,
    async start() {
      child = await launch();
    },
    async kill9() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      await this.kill9();
      child = await launch();
    },
    async stop() {
      if (child) await endProcess(child);
    },
  };
}

/**
 * The variables every process of a benchmark's cluster starts with: quiet, the rate limiter on
 * `redisUrl`, one proxy hop trusted, and the local payment provider's events sent through the proxy.
 */
export const clusterEnv = (proxyUrl: string, redisUrl: string): NodeJS.ProcessEnv => ({
  PAYMENTS_WEBHOOK_URL: `${proxyUrl}/api/webhooks/payments`,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  BASE_URL: 'https://usability.example',
  JWT_SECRET: testConfig().auth.jwtSecret,
  TRUST_PROXY: '1',
  REDIS_URL: redisUrl,
});

export interface Cluster {
  /** The proxy's address: where clients send their requests. */
  readonly url: string;
  readonly apis: readonly Member[];
  readonly workers: readonly Member[];
  stop(): Promise<void>;
}

/**
 * `apiCount` APIs and `workerCount` workers on `taskQueue`, every process with the configuration
 * `env(proxyUrl)` gives (the proxy's address comes first: the service's own calls to itself, the
 * local payment provider's events, go through it), behind a round-robin proxy.
 */
export async function startCluster(
  taskQueue: string,
  env: (proxyUrl: string) => NodeJS.ProcessEnv,
  counts: { apis: number; workers: number },
): Promise<Cluster> {
  const ports = await Promise.all(Array.from({ length: counts.apis }, () => freePort()));
  const proxy = await startRoundRobinProxy(ports);
  const temporal = await temporalEnvironment();
  const bundlePath = join(tmpdir(), `usability-replicas-workflows-${process.pid}.js`);
  await writeFile(bundlePath, (await workflowBundle()).code);
  const shared = {
    ...process.env,
    ...env(proxy.url),
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace ?? 'default',
    TEMPORAL_TASK_QUEUE: taskQueue,
  };
  const members: Member[] = [];
  const stop = async () => {
    await proxy.close();
    for (const one of members.reverse()) await one.stop();
    await rm(bundlePath, { force: true });
  };
  try {
    const workers = Array.from({ length: counts.workers }, (_, index) =>
      member(`worker-${index + 1}`, async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS], {
          env: { ...shared, WORKFLOW_BUNDLE_PATH: bundlePath },
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        await started(child, () => Promise.resolve(output.includes('worker ready')));
        return child;
      }),
    );
    let poll = 0;
    const apis = ports.map((port, index) =>
      member(`api-${index + 1}`, async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
          env: { ...shared, HOST: '127.0.0.1', PORT: String(port) },
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        // Each poll from an address of its own: the anonymous limit must not hold it up.
        await started(child, async () => {
          const headers = { 'X-Forwarded-For': `10.98.${Math.floor(poll / 250)}.${(poll++ % 250) + 1}` };
          return (await fetch(`http://127.0.0.1:${port}/api/health`, { headers })).status === 200;
        });
        return child;
      }),
    );
    for (const one of [...workers, ...apis]) {
      members.push(one);
      await one.start();
    }
    return { url: proxy.url, apis, workers, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

/** How long a backend that refused a connection is passed over. */
const DOWN_FOR_MS = 500;

/**
 * Sends each request to the next backend in turn. A backend that refuses the connection (nothing
 * was sent: it is down) is passed over for a moment and the request goes to the next one; a
 * backend that dies while answering leaves the client a 502, as a load balancer does.
 */
async function startRoundRobinProxy(ports: readonly number[]): Promise<Proxy> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const downUntil = new Map<number, number>();
  let next = 0;
  const pick = (tried: ReadonlySet<number>): number | undefined => {
    for (let i = 0; i < ports.length; i += 1) {
      const port = ports[(next + i) % ports.length]!;
      if (!tried.has(port) && (downUntil.get(port) ?? 0) <= Date.now()) {
        next = (next + i + 1) % ports.length;
        return port;
      }
    }
    return ports.find((port) => !tried.has(port));
  };

  const forward = (client: IncomingMessage, answer: ServerResponse, body: Buffer, tried: Set<number>) => {
    const port = pick(tried);
    if (port === undefined) {
      answer.writeHead(502).end();
      return;
    }
    tried.add(port);
    const upstream = request(
      { host: '127.0.0.1', port, method: client.method, path: client.url, headers: client.headers, agent },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
        response.on('error', () => answer.destroy());
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && !answer.headersSent) {
        downUntil.set(port, Date.now() + DOWN_FOR_MS);
        forward(client, answer, body, tried);
      } else if (!answer.headersSent) answer.writeHead(502).end();
      else answer.destroy();
    });
    upstream.end(body);
  };

  const server: Server = createServer((client, answer) => {
    const chunks: Buffer[] = [];
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.on('end', () => forward(client, answer, Buffer.concat(chunks), new Set()));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
