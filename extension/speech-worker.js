// @ts-check
// The speech recogniser in a worker of its own (bundled by scripts/lib/extension-build.ts): its
// onnxruntime instance and memory are apart from the voice-activity detector's, which runs in the
// offscreen document on every 32 ms of sound (two models sharing one instance garbled the second's
// transcripts), and a transcription never holds up the detector.

import { moonshineRecogniser } from './speech-recogniser.js';

/** @typedef {{ id: number, type: 'load', modelBase: string, wasmBase: string } | { id: number, type: 'transcribe', audio: Float32Array }} Request */

const scope =
  /** @type {{ postMessage(message: unknown): void, addEventListener(type: 'message', listener: (event: MessageEvent<Request>) => void): void }} */ (
    /** @type {unknown} */ (globalThis)
  );

/** @type {Promise<import('./speech-recogniser.js').Recogniser> | undefined} */
let recogniser;

scope.addEventListener('message', (event) => {
  const request = event.data;
  void (async () => {
    try {
      if (request.type === 'load') {
        recogniser = moonshineRecogniser({ modelBase: request.modelBase, wasmBase: request.wasmBase });
        const { name } = await recogniser;
        scope.postMessage({ id: request.id, ok: true, name });
      } else {
        if (!recogniser) throw new Error('the recogniser is not loaded');
        const text = await (await recogniser).transcribe(request.audio);
        scope.postMessage({ id: request.id, ok: true, text });
      }
    } catch (error) {
      scope.postMessage({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  })();
});
