// The part of a spoken segment that the recogniser should hear. The voice-activity detector keeps
// half a second before the speech (its start is detected late) and the second of quiet that ended
// it; Moonshine, given a segment that opens on half a second of a quiet room, often answers nothing
// at all ("I cannot find the checkout button." was heard as nothing in 12 tries of 12, and in 0 of
// 30 once trimmed, on espeak-ng's voice over room tone 60 dB down). So the sound is trimmed to
// where it is within SPAN_DB of its loudest moment, with a margin either side for soft consonants.

import { energy, type SpeechPiece } from './speech-pieces.ts';

/** Frames quieter than the loudest by more than this are the room, not the speaker. */
const SPAN_DB = 40;
/** The energy is measured over frames of this length. */
const FRAME_SECONDS = 0.01;
/** Kept before the first and after the last loud frame: a word's soft start and fading end. */
const MARGIN_BEFORE_SECONDS = 0.1;
const MARGIN_AFTER_SECONDS = 0.15;

/**
 * The sample offsets of `audio` from a little before its first frame within SPAN_DB of the loudest
 * to a little after its last; the whole of it when nothing stands out (silence, or sound that
 * never drops SPAN_DB below its peak, as in a noisy room, where trimming by level would cut words).
 */
export function soundedSpan(audio: Float32Array, sampleRate: number): SpeechPiece {
  const frame = Math.max(1, Math.round(FRAME_SECONDS * sampleRate));
  const frames = Math.floor(audio.length / frame);
  const levels = Array.from({ length: frames }, (_, f) => Math.sqrt(energy(audio, f * frame, frame) / frame));
  const loudest = Math.max(0, ...levels);
  const whole = { start: 0, end: audio.length };
  if (loudest === 0) return whole;
  const threshold = loudest / 10 ** (SPAN_DB / 20);
  const first = levels.findIndex((level) => level > threshold);
  const last = levels.findLastIndex((level) => level > threshold);
  return {
    start: Math.max(0, first * frame - Math.round(MARGIN_BEFORE_SECONDS * sampleRate)),
    end: Math.min(audio.length, (last + 1) * frame + Math.round(MARGIN_AFTER_SECONDS * sampleRate)),
  };
}
