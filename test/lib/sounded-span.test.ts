import assert from 'node:assert/strict';
import { soundedSpan } from '../../lib/voice/sounded-span.ts';

const RATE = 16_000;

/** `seconds` of noise at `amplitude` (full scale 1), the same every run. */
function noise(seconds: number, amplitude: number): Float32Array {
  let seed = 7;
  return Float32Array.from({ length: Math.round(seconds * RATE) }, () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return amplitude * ((seed / 0x7fffffff) * 2 - 1);
  });
}

function tone(seconds: number, amplitude: number): Float32Array {
  return Float32Array.from(
    { length: Math.round(seconds * RATE) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * 220 * i) / RATE),
  );
}

function joined(...parts: Float32Array[]): Float32Array {
  const audio = new Float32Array(parts.reduce((length, part) => length + part.length, 0));
  let at = 0;
  for (const part of parts) {
    audio.set(part, at);
    at += part.length;
  }
  return audio;
}

describe('the sounded part of a spoken segment (lib/voice/sounded-span.ts)', () => {
  it("trims a quiet room's half second before and second after the speech to the margins", () => {
    // Room tone about 60 dB below full scale, as the detector's padding holds it; speech at -6 dB.
    const audio = joined(noise(0.5, 0.001), tone(2, 0.5), noise(1, 0.001));
    assert.deepEqual(soundedSpan(audio, RATE), { start: 0.4 * RATE, end: 2.65 * RATE });
  });

  it('keeps a quiet word that is within 40 dB of the loudest', () => {
    // A soft ending 30 dB down (amplitude 0.016) still counts as speech; room tone 54 dB down does not.
    const audio = joined(noise(0.5, 0.001), tone(1, 0.5), tone(0.5, 0.016), noise(1, 0.001));
    assert.deepEqual(soundedSpan(audio, RATE), { start: 0.4 * RATE, end: 2.15 * RATE });
  });

  it('leaves whole a segment with no quiet in it (a noisy room) and one of silence', () => {
    const noisy = joined(noise(0.5, 0.05), tone(2, 0.5), noise(1, 0.05));
    assert.deepEqual(soundedSpan(noisy, RATE), { start: 0, end: noisy.length });
    const silent = new Float32Array(RATE);
    assert.deepEqual(soundedSpan(silent, RATE), { start: 0, end: silent.length });
    assert.deepEqual(soundedSpan(new Float32Array(0), RATE), { start: 0, end: 0 });
  });

  it('never reaches outside the segment', () => {
    const audio = joined(tone(1, 0.5), noise(0.05, 0.001));
    assert.deepEqual(soundedSpan(audio, RATE), { start: 0, end: audio.length });
  });
});
