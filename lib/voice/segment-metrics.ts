// A voice segment's derived metrics, computed from its transcript on the tester's machine (the
// extension) so that only text and numbers leave: the spec's `sentiment`, `sentimentScore`,
// `hesitationCount` and `wordsPerMinute`.
import SentimentAnalyser from 'sentiment';
import type { Sentiment } from '../domain.ts';

export interface SegmentMetrics {
  readonly sentiment: Sentiment;
  /** -1 to 1. */
  readonly sentimentScore: number;
  readonly hesitationCount: number;
  readonly wordsPerMinute: number;
}

/** Filled pauses a recogniser writes out (English). */
const FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'uhm', 'er', 'erm', 'hmm', 'hm', 'mm', 'ah']);
/** A score this close to 0 is neutral. */
const NEUTRAL_BAND = 0.05;
/** AFINN rates words -5 to 5; a segment averaging 2 per word (strongly worded throughout) is at the scale's end. */
const FULL_SCALE_PER_WORD = 2;

const analyser = new SentimentAnalyser();

/** The transcript's words, lower case, without punctuation (apostrophes kept: "can't"). */
export function wordsOf(transcript: string): string[] {
  return transcript
    .toLowerCase()
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/**
 * Hesitation markers: filled pauses ("um", "uh") and a word said twice in a row ("the the"), the
 * two a transcript keeps of a speaker's hesitation.
 */
export function hesitationCount(words: readonly string[]): number {
  let count = 0;
  words.forEach((word, index) => {
    if (FILLERS.has(word)) count += 1;
    else if (index > 0 && words[index - 1] === word) count += 1;
  });
  return count;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * Sentiment from the AFINN-165 word list (the `sentiment` package, which also turns a negated word
 * around: "not good" counts as negative), scaled to -1..1 by its mean per word.
 */
export function sentimentOf(transcript: string): { sentiment: Sentiment; sentimentScore: number } {
  const { comparative } = analyser.analyze(transcript);
  const sentimentScore = round(Math.max(-1, Math.min(1, comparative / FULL_SCALE_PER_WORD)), 4);
  const sentiment =
    sentimentScore > NEUTRAL_BAND ? 'positive' : sentimentScore < -NEUTRAL_BAND ? 'negative' : 'neutral';
  return { sentiment, sentimentScore };
}

/** Every derived metric of a segment spoken from `startMs` to `endMs`. */
export function segmentMetrics(transcript: string, startMs: number, endMs: number): SegmentMetrics {
  const words = wordsOf(transcript);
  const minutes = Math.max(endMs - startMs, 1) / 60_000;
  const spoken = words.filter((word) => !FILLERS.has(word)).length;
  return {
    ...sentimentOf(transcript),
    hesitationCount: hesitationCount(words),
    wordsPerMinute: round(spoken / minutes, 1),
  };
}
