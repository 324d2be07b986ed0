/**
 * What `npm start` has started, stopped in reverse order exactly once: on Ctrl-C (SIGINT), SIGTERM,
 * SIGHUP (a closed terminal; bootstrap.mjs passes it on),
 * a failed set-up step or a child that died. Signal handlers are installed when it is created, so
 * nothing started afterwards (the Temporal dev server while the database is still being migrated)
 * can outlive the script.
 */
export class Lifecycle {
  private readonly stops: { readonly name: string; readonly stop: () => Promise<void> }[] = [];
  private stopping: Promise<never> | undefined;

  constructor(private readonly exit: (code: number) => never = (code) => process.exit(code)) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(signal, () => void this.stopAll(0));
  }

  /** True once stopping has begun: a child's exit is then expected, not a failure. */
  get isStopping(): boolean {
    return this.stopping !== undefined;
  }

  /** Registers how to stop something just started; it is stopped before everything started earlier. */
  started(name: string, stop: () => Promise<void>): void {
    this.stops.push({ name, stop });
  }

  /** Stops everything started so far (once; later calls wait for the first) and exits with `code`. */
  stopAll(code: number): Promise<never> {
    this.stopping ??= (async () => {
      console.log('[start] stopping...');
      for (const { name, stop } of [...this.stops].reverse()) {
        try {
          await stop();
        } catch (error) {
          console.error(`[start] stopping ${name} failed: ${(error as Error).message}`);
        }
      }
      return this.exit(code);
    })();
    return this.stopping;
  }
}
