import assert from 'node:assert/strict';
import {
  MAX_PIECE_SECONDS,
  MAX_TRANSCRIPT_CHARS,
  speechPieces,
  withinTranscriptLimit,
} from '../../lib/voice/speech-pieces.ts';

const RATE = 16_000;

/** `seconds` of a loud tone with silent gaps at the given seconds (each 0.2 s long). */
function speech(seconds: number, gapsAt: number[] = []): Float32Array {
  const audio = new Float32Array(Math.round(seconds * RATE));
  for (let i = 0; i < audio.length; i++) audio[i] = 0.5 * Math.sin((2 * Math.PI * 220 * i) / RATE);
  for (const gap of gapsAt) audio.fill(0, Math.round(gap * RATE), Math.round((gap + 0.2) * RATE));
  return audio;
}

describe('long speech cut into pieces (lib/voice/speech-pieces.ts)', () => {
  it('leaves a segment of at most the longest piece whole', () => {
    assert.deepEqual(speechPieces(speech(3), RATE), [{ start: 0, end: 3 * RATE }]);
    const exactly = speech(MAX_PIECE_SECONDS);
    assert.deepEqual(speechPieces(exactly, RATE), [{ start: 0, end: exactly.length }]);
  });

  it("cuts a long segment at the pause near each piece's end, covering the whole segment", () => {
    const audio = speech(50, [17, 35.5]);
    const pieces = speechPieces(audio, RATE);
    assert.equal(pieces.length, 3);
    assert.equal(pieces[0]?.start, 0);
    assert.equal(pieces.at(-1)?.end, audio.length);
    for (const [i, piece] of pieces.entries()) {
      assert.ok(piece.end - piece.start <= MAX_PIECE_SECONDS * RATE, `piece ${i} is too long`);
      if (i > 0) assert.equal(piece.start, pieces[i - 1]?.end, 'pieces leave no gap and do not overlap');
    }
    // Each cut falls inside a silent gap (17.0-17.2 s and 35.5-35.7 s).
    const cuts = pieces.slice(0, -1).map((piece) => piece.end / RATE);
    assert.ok(cuts[0]! >= 17 && cuts[0]! <= 17.2, `first cut at ${cuts[0]} s`);
    assert.ok(cuts[1]! >= 35.5 && cuts[1]! <= 35.7, `second cut at ${cuts[1]} s`);
  });

  it('cuts speech without any pause at the longest piece at the latest', () => {
    const audio = speech(65);
    const pieces = speechPieces(audio, RATE);
    assert.ok(pieces.length >= 4);
    for (const piece of pieces) assert.ok(piece.end - piece.start <= MAX_PIECE_SECONDS * RATE);
    assert.equal(pieces.at(-1)?.end, audio.length);
  });

  it('never leaves a sliver at the end: the last piece holds at least a second', () => {
    // 20.5 s of speech with a pause at 20.3 s: cutting there would leave 0.2 s.
    const audio = speech(20.5, [20.3]);
    const pieces = speechPieces(audio, RATE);
    assert.equal(pieces.length, 2);
    const last = pieces.at(-1)!;
    assert.ok(last.end - last.start >= RATE, `the last piece is ${(last.end - last.start) / RATE} s`);
    assert.ok(pieces[0]!.end - pieces[0]!.start <= MAX_PIECE_SECONDS * RATE);
  });

  it('keeps a transcript within the API limit, cut after a whole word', () => {
    assert.equal(withinTranscriptLimit('short and sweet'), 'short and sweet');
    const long = 'word '.repeat(2_500).trim(); // 12,499 characters
    const kept = withinTranscriptLimit(long);
    assert.ok(kept.length <= MAX_TRANSCRIPT_CHARS, String(kept.length));
    assert.ok(kept.length > MAX_TRANSCRIPT_CHARS - 6, String(kept.length));
    assert.ok(kept.endsWith('word') && long.startsWith(kept));
    const unbroken = 'x'.repeat(MAX_TRANSCRIPT_CHARS + 50);
    assert.equal(withinTranscriptLimit(unbroken).length, MAX_TRANSCRIPT_CHARS);
  });
});
