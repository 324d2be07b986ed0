import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { endProcess, freePort } from './free-port.ts';

/**
 * A Temporal dev server of the test's own, kept in a SQLite file so that it can be stopped and
 * started again on the same address with every workflow where it was: the suite's shared server
 * (support/temporal.ts) is never the one a test takes down.
 */
export interface RestartableTemporal {
  readonly address: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its store. */
  dispose(): Promise<void>;
}

export async function startRestartableTemporal(): Promise<RestartableTemporal> {
  const cli = process.env.TEMPORAL_CLI_PATH;
  if (!cli) throw new Error('TEMPORAL_CLI_PATH is not set: run the suite with npm test');
  const directory = await mkdtemp(join(tmpdir(), 'temporal-restart-'));
  const [port, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const address = `127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(
      cli,
      [
        'server',
        'start-dev',
        '--headless',
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--http-port',
        String(httpPort),
        '--metrics-port',
        String(metricsPort),
        '--db-filename',
        join(directory, 'temporal.sqlite'),
        '--log-level',
        'error',
      ],
      { stdio: 'ignore' },
    );
    // Ready once it answers: a connection that reaches getSystemInfo within the deadline. A restart
    // reopens the SQLite file the stopped server wrote; on a loaded 2-core machine that took over 30 s.
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        const connection = await Connection.connect({ address, connectTimeout: 1000 });
        await connection.withDeadline(Date.now() + 1000, () => connection.workflowService.getSystemInfo({}));
        await connection.close();
        // Our server answered, not another that took the port meanwhile.
        if (child.exitCode !== null) throw new Error(`the Temporal dev server on ${address} exited`);
        return;
      } catch (error) {
        if (Date.now() > deadline || child.exitCode !== null) {
          await endProcess(child);
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  const stop = async () => {
    if (child) await endProcess(child);
  };

  await start();
  return {
    address,
    start,
    stop,
    dispose: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
