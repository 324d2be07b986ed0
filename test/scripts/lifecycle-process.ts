// A stand-in for scripts/start.ts in test/scripts/lifecycle.test.ts: installs the Lifecycle first,
// starts a long-running child the way start.ts starts the Temporal dev server (registered as soon
// as it is spawned), prints `started <pid>`, then, by its argument:
//   fail  a later set-up step throws (a failed migration): everything started is stopped, exit 1
//   wait  a later set-up step never ends (a slow migration): Ctrl-C stops everything, exit 0
import { spawn } from 'node:child_process';
import { Lifecycle } from '../../scripts/lib/lifecycle.ts';
import { stopProcess } from '../../scripts/lib/processes.ts';

const lifecycle = new Lifecycle();

async function setUp(mode: string): Promise<void> {
  const server = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  lifecycle.started('the stand-in server', async () => {
    await stopProcess(server, 5000);
  });
  process.stdout.write(`started ${server.pid}\n`);
  if (mode === 'fail') throw new Error('migration failed');
  await new Promise(() => {});
}

await setUp(process.argv[2] ?? 'wait').catch((error: unknown) => {
  console.error(`[start] ${(error as Error).message}`);
  return lifecycle.stopAll(1);
});
