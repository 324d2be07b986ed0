/** Percentile by nearest rank over an unsorted sample. */
export function percentile(sample: readonly number[], p: number): number {
  if (!sample.length) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const median = (sample: readonly number[]): number => percentile(sample, 50);

export const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

/** Runs `work` for every index with at most `concurrency` in flight; returns each call's duration in ms. */
export async function timedPool(count: number, concurrency: number, work: (index: number) => Promise<void>) {
  const durations: number[] = new Array<number>(count);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const t0 = performance.now();
        await work(index);
        durations[index] = performance.now() - t0;
      }
    }),
  );
  return { durations, totalMs: performance.now() - started };
}
