import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the fake microphone says, one sentence at a time (espeak-ng, American English). */
export const SPOKEN_SENTENCES = [
  'I cannot find the checkout button.',
  'I really like the new search page.',
  'This form is confusing and I cannot submit it.',
];
/** Silence between sentences: long enough for the voice-activity detector to end a segment. */
const PAUSE_SECONDS = 2;

/** The 16-bit mono PCM samples and rate of a WAV file that espeak-ng wrote. */
async function pcmOf(file: string): Promise<{ samples: Buffer; rate: number }> {
  const wav = await readFile(file);
  const rate = wav.readUInt32LE(24);
  let at = 12;
  while (at < wav.length - 8) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    // espeak-ng writes the data chunk's size as unknown (0xffffffff) when it streams to a file.
    if (id === 'data')
      return { samples: wav.subarray(at + 8, size > wav.length ? wav.length : at + 8 + size), rate };
    at += 8 + size;
  }
  throw new Error(`${file}: no data chunk`);
}

function wavOf(samples: Buffer, rate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]);
}

/**
 * `seconds` of a quiet room: noise about 60 dB below full scale, as a real microphone gives between
 * words (never digital silence, which no microphone sends and after which the detector was slow
 * to hear the next sentence). Deterministic, so every run plays the same sound.
 */
function roomTone(seconds: number, rate: number): Buffer {
  const samples = Buffer.alloc(Math.round(seconds * rate) * 2);
  let seed = 12345;
  for (let at = 0; at < samples.length; at += 2) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    samples.writeInt16LE((seed % 65) - 32, at);
  }
  return samples;
}

/**
 * A WAV (what Chromium's `--use-file-for-fake-audio-capture` plays, in a loop) of the sentences
 * spoken by espeak-ng with a pause after each.
 */
export async function spokenSentences(dir: string, sentences = SPOKEN_SENTENCES): Promise<string> {
  const parts: Buffer[] = [];
  let rate = 0;
  for (const [index, sentence] of sentences.entries()) {
    const file = join(dir, `sentence-${index}.wav`);
    const result = spawnSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', file, sentence], {
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`espeak-ng failed: ${result.stderr}`);
    const pcm = await pcmOf(file);
    rate = pcm.rate;
    parts.push(pcm.samples, roomTone(PAUSE_SECONDS, rate));
  }
  const path = join(dir, 'spoken.wav');
  // Two seconds of silence first: the models load while it plays, and the first sentence is heard whole.
  await writeFile(path, wavOf(Buffer.concat([roomTone(2, rate), ...parts]), rate));
  return path;
}

/** Word error rate of a transcript against what was said: word-level edit distance over the said words. */
export function wordErrorRate(said: string, heard: string): number {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const reference = words(said);
  const hypothesis = words(heard);
  let previous = Array.from({ length: hypothesis.length + 1 }, (_, j) => j);
  for (let i = 1; i <= reference.length; i++) {
    const current = [i];
    for (let j = 1; j <= hypothesis.length; j++) {
      const substitution = previous[j - 1]! + (reference[i - 1] === hypothesis[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j]! + 1, current[j - 1]! + 1);
    }
    previous = current;
  }
  return previous[hypothesis.length]! / Math.max(reference.length, 1);
}
