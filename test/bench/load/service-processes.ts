// The service as production runs it, for the load benchmark: the API (api/main.ts) and the service
// worker each in a process of their own, so the load generator in the benchmark's process shares
// neither's event loop. Both run on the bench's database and Temporal server.
import { spawn, type ChildProcess } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endProcess, freePort } from '../../support/free-port.ts';
import { temporalEnvironment, workflowBundle } from '../../support/temporal.ts';

export const API_MAIN = fileURLToPath(new URL('../../../api/main.ts', import.meta.url));
export const WORKER_PROCESS = fileURLToPath(
  new URL('../../support/service-worker-process.ts', import.meta.url),
);

export interface ServiceProcesses {
  readonly url: string;
  stop(): Promise<void>;
}

/** Resolves once `ready` holds (polled every 200 ms); rejects if the process exits first. */
export function started(child: ChildProcess, ready: () => Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const exited = (code: number | null) => {
      settled = true;
      reject(new Error(`process exited (${code}) before it was ready`));
    };
    child.once('exit', exited);
    const poll = async () => {
      if (settled) return;
      if (await ready().catch(() => false)) {
        settled = true;
        child.off('exit', exited);
        resolve();
      } else setTimeout(() => void poll(), 200);
    };
    void poll();
  });
}

/**
 * Starts the worker and the API on `taskQueue` with the API's configuration plus `env`, and waits
 * until the API's health answers 200.
 */
export async function startServiceProcesses(
  taskQueue: string,
  env: NodeJS.ProcessEnv,
  /** Node's own flags for the API (a CPU profile: `--cpu-prof`, which NODE_OPTIONS refuses). */
  apiNodeArgs: readonly string[] = [],
): Promise<ServiceProcesses> {
  const temporal = await temporalEnvironment();
  const bundlePath = join(tmpdir(), `usability-load-workflows-${process.pid}.js`);
  await writeFile(bundlePath, (await workflowBundle()).code);
  const shared = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: temporal.namespace ?? 'default',
    TEMPORAL_TASK_QUEUE: taskQueue,
  };
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children.reverse()) await endProcess(child);
    await rm(bundlePath, { force: true });
  };
  try {
    const worker = spawn(process.execPath, ['--import', 'tsx', WORKER_PROCESS], {
      env: { ...shared, WORKFLOW_BUNDLE_PATH: bundlePath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(worker);
    let workerOutput = '';
    worker.stdout.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    await started(worker, () => Promise.resolve(workerOutput.includes('worker ready')));

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const api = spawn(process.execPath, [...apiNodeArgs, '--import', 'tsx', API_MAIN], {
      env: { ...shared, ...env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(api);
    // Each poll from an address of its own: the anonymous limit (30 a minute) must not hold it up.
    let poll = 0;
    await started(api, async () => {
      const headers = { 'X-Forwarded-For': `10.99.${Math.floor(poll / 250)}.${(poll++ % 250) + 1}` };
      return (await fetch(`${url}/api/health`, { headers })).status === 200;
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
