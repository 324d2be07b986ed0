// A spoken segment as the recogniser gets it: a voice-activity detector ends a segment only at a
// pause, so a tester who talks on without one gives a segment of minutes. Recognisers are made for
// short utterances (Moonshine for at most about a minute, and it slows with the square of the
// length), so a long segment is cut into pieces of at most MAX_PIECE_SECONDS, each at the quietest
// moment near its end (between words, as far as the sound tells), and each piece becomes a voice
// segment of its own.

/** The longest piece of speech transcribed at once. */
export const MAX_PIECE_SECONDS = 20;
/** The last part of a piece where its cut is looked for. */
const SEARCH_SECONDS = 5;
/** The cut is the middle of the quietest window of this length. */
const WINDOW_SECONDS = 0.1;
/** The shortest piece a cut leaves at the end (a sliver of sound is no utterance). */
const MIN_LAST_PIECE_SECONDS = 1;
/** The longest transcript the API stores (`commands/ingestion/items.schema.ts`). */
export const MAX_TRANSCRIPT_CHARS = 10_000;

/** Sample offsets into the segment: `start` included, `end` not. */
export interface SpeechPiece {
  readonly start: number;
  readonly end: number;
}

/** The energy of `length` samples from `from`. */
export function energy(audio: Float32Array, from: number, length: number): number {
  let sum = 0;
  for (let i = from; i < from + length; i++) sum += (audio[i] ?? 0) ** 2;
  return sum;
}

/** The segment's pieces, in order, covering it whole; one piece for a segment that is short enough. */
export function speechPieces(audio: Float32Array, sampleRate: number): SpeechPiece[] {
  const longest = Math.round(MAX_PIECE_SECONDS * sampleRate);
  const window = Math.max(1, Math.round(WINDOW_SECONDS * sampleRate));
  const step = Math.max(1, Math.floor(window / 2));
  const pieces: SpeechPiece[] = [];
  let start = 0;
  while (audio.length - start > longest) {
    const limit = Math.min(start + longest, audio.length - Math.round(MIN_LAST_PIECE_SECONDS * sampleRate));
    let cut = limit;
    let quietest = Infinity;
    for (let from = limit - Math.round(SEARCH_SECONDS * sampleRate); from + window <= limit; from += step) {
      const heard = energy(audio, from, window);
      if (heard < quietest) {
        quietest = heard;
        cut = from + Math.floor(window / 2);
      }
    }
    pieces.push({ start, end: cut });
    start = cut;
  }
  pieces.push({ start, end: audio.length });
  return pieces;
}

/** A transcript within the API's limit, cut after its last whole word that fits. */
export function withinTranscriptLimit(transcript: string): string {
  if (transcript.length <= MAX_TRANSCRIPT_CHARS) return transcript;
  const cut = transcript.slice(0, MAX_TRANSCRIPT_CHARS + 1);
  const lastSpace = cut.search(/\s\S*$/);
  return (lastSpace > 0 ? cut.slice(0, lastSpace) : cut.slice(0, MAX_TRANSCRIPT_CHARS)).trimEnd();
}
