import type { ChildProcess } from 'node:child_process';

/**
 * Asks a child to stop (SIGTERM) and waits for it; one that is still running after `graceMs` is
 * killed (SIGKILL), so a process stuck in its shutdown cannot make Ctrl-C hang. Resolves with how
 * it ended.
 */
export function stopProcess(child: ChildProcess, graceMs: number): Promise<'exited' | 'killed'> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve('exited');
  return new Promise((resolve) => {
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(killed ? 'killed' : 'exited');
    });
    child.kill('SIGTERM');
  });
}
