import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { Connection } from '@temporalio/client';
import { stopProcess } from './processes.ts';

/** How long the dev server may take to stop on SIGTERM before it is killed. */
const STOP_GRACE_MS = 10_000;

export interface DevServer {
  readonly address: string;
  readonly uiUrl: string;
  stop(): Promise<void>;
}

export interface DevServerOptions {
  readonly cli: string;
  /** The address both the frontend and the Web UI listen on (loopback). */
  readonly ip: string;
  readonly port: number;
  readonly uiPort: number;
  readonly dbFile: string;
  readonly logFile: string;
  /**
   * Called as soon as the process is spawned, before it answers, with how to stop it: a caller
   * interrupted while waiting (Ctrl-C) must still be able to stop the server it started.
   */
  readonly onSpawn?: (stop: () => Promise<void>) => void;
}

/** True when a Temporal frontend answers at `address` within the timeout. */
export async function temporalReachable(address: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const connection = await Connection.connect({ address, connectTimeout: timeoutMs });
    try {
      await connection.workflowService.getSystemInfo({});
      return true;
    } finally {
      await connection.close();
    }
  } catch {
    return false;
  }
}

/** Starts `temporal server start-dev` persisting to a SQLite file, and waits until it answers. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  mkdirSync(dirname(options.dbFile), { recursive: true });
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = openSync(options.logFile, 'a');
  const child: ChildProcess = spawn(
    options.cli,
    [
      'server',
      'start-dev',
      '--ip',
      options.ip,
      '--port',
      String(options.port),
      '--ui-port',
      String(options.uiPort),
      '--db-filename',
      options.dbFile,
      '--log-level',
      'warn',
    ],
    { stdio: ['ignore', log, log] },
  );
  const stop = async () => {
    await stopProcess(child, STOP_GRACE_MS);
  };
  options.onSpawn?.(stop);
  const host = options.ip.includes(':') ? `[${options.ip}]` : options.ip;
  const address = `${host}:${options.port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) =>
      reject(new Error(`Temporal dev server exited with code ${code}; see ${options.logFile}`)),
    ),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + 60_000;
  while (!(await Promise.race([temporalReachable(address, 1000), exited]))) {
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`Temporal dev server did not answer at ${address} within 60 s; see ${options.logFile}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    address,
    uiUrl: `http://${host}:${options.uiPort}`,
    stop,
  };
}
