import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const STAND_IN = fileURLToPath(new URL('./lifecycle-process.ts', import.meta.url));

interface StandIn {
  readonly exited: Promise<unknown[]>;
  readonly script: ChildProcess;
  readonly serverPid: number;
}

/** Runs the stand-in for scripts/start.ts; resolves once it has started its child, with that child's pid. */
function startStandIn(mode: 'fail' | 'wait'): Promise<StandIn> {
  const script = spawn(process.execPath, ['--import', 'tsx', STAND_IN, mode], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const exited = once(script, 'exit');
  let output = '';
  return new Promise((resolve, reject) => {
    // Read to the end: a closed pipe would make the stand-in's own output fail.
    script.stdout.on('data', (chunk) => {
      output += String(chunk);
      const pid = /started (\d+)/.exec(output)?.[1];
      if (pid) resolve({ exited, script, serverPid: Number(pid) });
    });
    void exited.then(() => reject(new Error(`the stand-in exited without starting its child: ${output}`)));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until the process is gone; false if it is still there at the deadline. */
async function gone(pid: number, deadlineMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

describe('npm start: nothing it started outlives it (scripts/lib/lifecycle.ts)', () => {
  const leftovers: number[] = [];
  afterEach(() => {
    for (const pid of leftovers.splice(0)) if (alive(pid)) process.kill(pid, 'SIGKILL');
  });

  it('a set-up step that fails after the Temporal dev server started stops the server, exit code 1', async () => {
    const { exited, serverPid } = await startStandIn('fail');
    leftovers.push(serverPid);
    const [code] = (await exited) as [number | null];
    assert.equal(code, 1);
    assert.ok(await gone(serverPid), 'the child started before the failure is stopped');
  });

  for (const [signal, what] of [
    ['SIGINT', 'Ctrl-C'],
    ['SIGTERM', 'SIGTERM'],
    ['SIGHUP', 'a closed terminal (SIGHUP)'],
  ] as const) {
    it(`${what} during set-up (before API and worker exist) stops what was started, exit code 0`, async () => {
      const { exited, script, serverPid } = await startStandIn('wait');
      leftovers.push(serverPid);
      script.kill(signal);
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
      assert.ok(await gone(serverPid), `the child started before ${signal} is stopped`);
    });
  }
});
