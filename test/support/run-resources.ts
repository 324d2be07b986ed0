/**
 * Resources a test file opens that later files in the same process can use again (the audit
 * harness's browser and worker take seconds of processor to start, each time): once a mocha run's
 * root hook has asked for it, they stay open after their last user lets go and are closed by that
 * hook when the run ends. Outside mocha (the benchmarks) nothing is kept.
 */
const closers: (() => Promise<void>)[] = [];
let keeping = false;

/** Called by the root hook: resources from now on stay open until `closeRunResources`. */
export function keepResourcesForRun(): void {
  keeping = true;
}

/** Whether `close` was taken to run at the end of the run (else the caller closes its resource itself). */
export function keptForRun(close: () => Promise<void>): boolean {
  if (keeping) closers.push(close);
  return keeping;
}

/** Closes the kept resources, the last opened first; every one is closed before a failure is thrown. */
export async function closeRunResources(): Promise<void> {
  const failures: unknown[] = [];
  for (const close of closers.splice(0).reverse())
    await close().catch((error: unknown) => failures.push(error));
  if (failures.length === 1) throw failures[0];
  if (failures.length) throw new AggregateError(failures, 'kept test resources failed to close');
}
