import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * Runs tsc on a project of plain JavaScript checked through JSDoc (the browser-side scripts, kept
 * apart from the Node project's `npm run typecheck`) and fails with its output unless it is clean.
 */
export function assertTypechecks(tsconfig: string): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', tsconfig], { encoding: 'utf8' });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
}
