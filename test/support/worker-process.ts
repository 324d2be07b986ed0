import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { temporalEnvironment } from './temporal.ts';

const SCRIPT = fileURLToPath(new URL('./service-worker-process.ts', import.meta.url));

/**
 * The service worker in a child process (test/support/service-worker-process.ts) on the suite's
 * Temporal server, polling `taskQueue` with the workflow bundle written at `bundlePath`; resolves
 * once it polls. `env` adds variables (WORKER_MONEY, WORKER_METRICS_PORT).
 */
export async function spawnServiceWorker(options: {
  readonly taskQueue: string;
  readonly bundlePath: string;
  readonly env?: NodeJS.ProcessEnv;
}): Promise<ChildProcess> {
  const temporal = await temporalEnvironment();
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_NAMESPACE: temporal.namespace ?? 'default',
      TEMPORAL_TASK_QUEUE: options.taskQueue,
      WORKFLOW_BUNDLE_PATH: options.bundlePath,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker process exited (${code}) before it was ready`)));
  });
  return child;
}
