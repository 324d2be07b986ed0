export interface VariantShare {
  readonly label: string;
  readonly share: number;
}

/**
 * The variant whose share of sessions lags its split ratio most once one more session exists
 * (ties go to the first label), so assignments track the ratio at every count, not only on average.
 */
export function assignVariant(
  variants: readonly VariantShare[],
  counts: ReadonlyMap<string, number>,
): string {
  const total = variants.reduce((sum, v) => sum + (counts.get(v.label) ?? 0), 0) + 1;
  let best = variants[0]!;
  let bestDeficit = -Infinity;
  for (const variant of variants) {
    const deficit = variant.share * total - (counts.get(variant.label) ?? 0);
    if (deficit > bestDeficit + 1e-9) {
      best = variant;
      bestDeficit = deficit;
    }
  }
  return best.label;
}
