// @ts-check
// The microphone's side of the offscreen document: a voice-activity detector (Silero VAD through
// @ricky0123/vad-web, its model packaged with the extension) cuts the microphone's sound into
// spoken segments; each is transcribed on this computer (speech-recogniser.js) and measured
// (lib/voice/segment-metrics.ts). Only the transcript and the numbers are posted to the background
// worker; the sound stays in this document and is dropped once transcribed.

import { MicVAD } from '@ricky0123/vad-web';
import { segmentMetrics } from '../lib/voice/segment-metrics.ts';
import { soundedSpan } from '../lib/voice/sounded-span.ts';
import { speechPieces, withinTranscriptLimit } from '../lib/voice/speech-pieces.ts';
import { SAMPLE_RATE } from './speech-recogniser.js';
import { chooseRecogniser, onDeviceWebSpeech } from './web-speech-recogniser.js';

/** Sound kept before the speech starts, and silence that ends a segment (the detector's settings). */
const PRE_SPEECH_PAD_MS = 500;
const REDEMPTION_MS = 1_000;

/**
 * The recogniser in its worker (speech-worker.js), behind the same interface.
 * @returns {Promise<import('./speech-recogniser.js').Recogniser>}
 */
async function workerRecogniser() {
  const worker = new Worker(chrome.runtime.getURL('speech-worker.js'), { type: 'module' });
  /** @typedef {{ name?: string, text?: string }} Answer */
  /** @type {Map<number, { resolve: (value: Answer) => void, reject: (error: Error) => void }>} */
  const waiting = new Map();
  let nextId = 0;
  worker.addEventListener('message', (event) => {
    const data = /** @type {unknown} */ (event.data);
    const { id, ok, error, ...answer } = /** @type {{ id: number, ok: boolean, error?: string } & Answer} */ (
      data
    );
    const pending = waiting.get(id);
    waiting.delete(id);
    if (ok) pending?.resolve(answer);
    else pending?.reject(new Error(error));
  });
  // A worker that fails (it did not load, or ran out of memory) fails everything it was asked.
  worker.addEventListener('error', (event) => {
    for (const pending of waiting.values())
      pending.reject(new Error(event.message || 'the speech worker failed'));
    waiting.clear();
  });
  /** @param {Record<string, unknown>} request @param {Transferable[]} [transfer] @returns {Promise<Answer>} */
  const ask = (request, transfer = []) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, ...request }, transfer);
    });
  const loaded = await ask({
    type: 'load',
    modelBase: chrome.runtime.getURL('models/moonshine'),
    wasmBase: chrome.runtime.getURL('ort/'),
  });
  return {
    name: loaded.name ?? 'moonshine-tiny',
    async transcribe(audio) {
      // A copy goes to the worker: the segment's own buffer stays with the metrics' timing.
      const copy = audio.slice();
      const { text } = await ask({ type: 'transcribe', audio: copy }, [copy.buffer]);
      return text ?? '';
    },
  };
}

/**
 * Listens until the document is closed (which ends the microphone and the detector with it).
 * @param {(message: Record<string, unknown>) => Promise<unknown>} tell
 */
export async function startVoiceListener(tell) {
  /** @type {MediaStream} */
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      // The browser's voice processing (gain control above all) changes levels the model was not
      // trained on; the recogniser gets the sound as the microphone gives it, scaled to a fixed peak.
      audio: { channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      video: false,
    });
  } catch (error) {
    await tell({ type: 'voice-unavailable', reason: error instanceof Error ? error.name : String(error) });
    return;
  }
  const endMicrophone = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  try {
    const recogniser = await chooseRecogniser({
      onDevice: () => onDeviceWebSpeech({ sampleRate: SAMPLE_RATE }),
      bundled: workerRecogniser,
    });
    // Segments are transcribed one after another, in the order they were spoken.
    let queue = Promise.resolve();
    /** Pieces queued and not yet begun. */
    let waiting = 0;
    const vad = await MicVAD.new({
      model: 'v5',
      // At the model's rate, the browser resamples the microphone (well filtered); the detector's own
      // resampler from 48 kHz leaves aliasing the recogniser stumbles on (sentences heard as nothing).
      audioContext: new AudioContext({ sampleRate: SAMPLE_RATE }),
      baseAssetPath: chrome.runtime.getURL('vad/'),
      onnxWASMBasePath: chrome.runtime.getURL('ort/'),
      preSpeechPadMs: PRE_SPEECH_PAD_MS,
      redemptionMs: REDEMPTION_MS,
      getStream: () => Promise.resolve(stream),
      pauseStream: () => Promise.resolve(),
      resumeStream: () => Promise.resolve(stream),
      onSpeechEnd: (audio) => {
        // The segment's sound holds the padding before the speech and the silence that ended it;
        // its times (and so words per minute) are the speech's own.
        const heardUntil = Date.now();
        const heardFrom = heardUntil - (audio.length / SAMPLE_RATE) * 1000;
        const speechUntil = Math.max(heardFrom + 1, heardUntil - REDEMPTION_MS);
        const speechFrom = Math.min(speechUntil - 1, heardFrom + PRE_SPEECH_PAD_MS);
        // Long speech is transcribed, and sent, piece by piece (lib/voice/speech-pieces.ts). The
        // cuts are made in the speech, never in the closing silence, which stays with the last piece.
        const silence = Math.round((REDEMPTION_MS / 1000) * SAMPLE_RATE);
        const pieces = speechPieces(audio.subarray(0, Math.max(1, audio.length - silence)), SAMPLE_RATE);
        for (const [i, piece] of pieces.entries()) {
          const end = i === pieces.length - 1 ? audio.length : piece.end;
          const at = (/** @type {number} */ offset) => heardFrom + (offset / SAMPLE_RATE) * 1000;
          const endMs = Math.min(speechUntil, at(end));
          const startMs = Math.min(endMs - 1, Math.max(speechFrom, at(piece.start)));
          // The recogniser hears the piece without the quiet room around it (lib/voice/sounded-span.ts).
          const whole = audio.subarray(piece.start, end);
          const sounded = soundedSpan(whole, SAMPLE_RATE);
          const sound = whole.subarray(sounded.start, sounded.end);
          waiting++;
          queue = queue.then(async () => {
            waiting--;
            const started = performance.now();
            const transcript = withinTranscriptLimit(await recogniser.transcribe(sound, waiting));
            const computeMs = performance.now() - started;
            if (!transcript) return;
            await tell({
              type: 'voice-segment',
              startTime: new Date(startMs).toISOString(),
              endTime: new Date(endMs).toISOString(),
              transcript,
              ...segmentMetrics(transcript, startMs, endMs),
              computeMs,
              audioMs: (sound.length / SAMPLE_RATE) * 1000,
            });
          });
          // One piece that fails to transcribe is lost alone; the next ones still go.
          queue = queue.catch((error) => console.warn('a speech segment was not transcribed', error));
        }
      },
    });
    await vad.start();
    await tell({ type: 'voice-started', recogniser: recogniser.name });
  } catch (error) {
    endMicrophone();
    await tell({
      type: 'voice-unavailable',
      reason: `model: ${error instanceof Error ? error.message : String(error)}`,
    });
    return async () => {};
  }
}
