// @ts-check
// Speech to text on the tester's machine. One interface, `transcribe(audio)` of a 16 kHz mono
// segment, and the recogniser behind it: Moonshine tiny (Useful Sensors, MIT), an English model
// whose quantised ONNX weights ship inside the npm package @usefulsensors/moonshine-js and are
// packaged with the extension, run by onnxruntime-web's WebAssembly backend in a worker of its own
// (speech-worker.js). The decoding loop is
// Moonshine's own (encoder once, then the merged decoder token by token with its key/value cache).

import * as ort from 'onnxruntime-web/wasm';
import llamaTokenizer from 'llama-tokenizer-js';

/**
 * A speech recogniser: `transcribe` a 16 kHz mono segment; `backlog` is how many segments wait
 * behind it (a recogniser that is slower than real time may hand it on).
 * @typedef {{ readonly name: string, transcribe(audio: Float32Array, backlog?: number): Promise<string> }} Recogniser
 */

/** Moonshine tiny's decoder: 6 layers of 8 key/value heads of 36 values. */
const SHAPE = { layers: 6, heads: 8, headDim: 36 };
const START_TOKEN = 1;
const END_TOKEN = 2;
/** Moonshine speaks at most about 6 tokens a second of audio; a longer output is a loop. */
const TOKENS_PER_SECOND = 6;
export const SAMPLE_RATE = 16_000;

/** The index of the largest value. @param {Float32Array} values */
function argMax(values) {
  let best = 0;
  for (let i = 1; i < values.length; i++)
    if (/** @type {number} */ (values[i]) > /** @type {number} */ (values[best])) best = i;
  return best;
}

/** Speech scaled so that its loudest sample is at PEAK (quiet microphones are common). */
const PEAK = 0.9;
/** @param {Float32Array} audio */
function normalised(audio) {
  let loudest = 0;
  for (const sample of audio) loudest = Math.max(loudest, Math.abs(sample));
  if (loudest === 0) return audio;
  const gain = PEAK / loudest;
  return audio.map((sample) => sample * gain);
}

/**
 * Loads Moonshine tiny from `modelBase` (a URL holding encoder_model.onnx and
 * decoder_model_merged.onnx) with onnxruntime-web's files at `wasmBase`.
 * @param {{ modelBase: string, wasmBase: string }} where
 * @returns {Promise<Recogniser>}
 */
export async function moonshineRecogniser({ modelBase, wasmBase }) {
  ort.env.wasm.wasmPaths = wasmBase;
  // Threads need workers from blob: URLs, which an extension's CSP refuses.
  ort.env.wasm.numThreads = 1;
  /** @type {ort.InferenceSession.SessionOptions} */
  const options = { executionProviders: ['wasm'] };
  const encoder = await ort.InferenceSession.create(`${modelBase}/encoder_model.onnx`, options);
  const decoder = await ort.InferenceSession.create(`${modelBase}/decoder_model_merged.onnx`, options);

  return {
    name: 'moonshine-tiny',
    async transcribe(audio) {
      audio = normalised(audio);
      const encoded = await encoder.run({
        input_values: new ort.Tensor('float32', audio, [1, audio.length]),
      });
      /** @type {Record<string, ort.Tensor>} */
      let cache = {};
      for (let layer = 0; layer < SHAPE.layers; layer++)
        for (const part of ['decoder', 'encoder'])
          for (const kind of ['key', 'value'])
            cache[`past_key_values.${layer}.${part}.${kind}`] = new ort.Tensor(
              'float32',
              new Float32Array(0),
              [0, SHAPE.heads, 1, SHAPE.headDim],
            );
      const tokens = [START_TOKEN];
      const limit = Math.ceil((audio.length / SAMPLE_RATE) * TOKENS_PER_SECOND);
      for (let step = 0; step < limit; step++) {
        const output = await decoder.run({
          input_ids: new ort.Tensor(
            'int64',
            BigInt64Array.from([BigInt(tokens.at(-1) ?? START_TOKEN)]),
            [1, 1],
          ),
          encoder_hidden_states: /** @type {ort.Tensor} */ (encoded.last_hidden_state),
          use_cache_branch: new ort.Tensor('bool', [step > 0], [1]),
          ...cache,
        });
        const logits = /** @type {ort.Tensor} */ (output.logits);
        const next = argMax(/** @type {Float32Array} */ (logits.data));
        if (next === END_TOKEN) break;
        tokens.push(next);
        // The encoder's cross-attention cache is computed at the first step and kept; the
        // decoder's self-attention cache grows each step.
        /** @type {Record<string, ort.Tensor>} */
        const updated = {};
        for (const name of Object.keys(cache)) {
          const present = /** @type {ort.Tensor} */ (output[name.replace('past_key_values', 'present')]);
          updated[name] =
            step === 0 || name.includes('.decoder.') ? present : /** @type {ort.Tensor} */ (cache[name]);
        }
        cache = updated;
      }
      return llamaTokenizer.decode(tokens.slice(1)).trim();
    },
  };
}
