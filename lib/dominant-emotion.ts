/** The label with the highest confidence (the first one on a tie); undefined for no labels. */
export function dominantEmotion(confidences: Readonly<Record<string, number>>): string | undefined {
  let best: string | undefined;
  let bestScore = -Infinity;
  for (const [label, score] of Object.entries(confidences)) {
    if (score > bestScore) [best, bestScore] = [label, score];
  }
  return best;
}
