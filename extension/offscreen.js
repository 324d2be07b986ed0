// @ts-check
// The offscreen document (built into the packaged extension by scripts/build-extension.ts): holds
// the camera and the microphone while the session records them (`?camera=1&microphone=1`). The
// microphone's part is voice-listener.js. The camera is sampled once a second and runs face-api's
// tiny face detector, landmarks and expression nets on TensorFlow.js's WebAssembly backend, weights
// and .wasm files packaged with the extension. Only the scores leave this document, as the spec's
// facial frame items; no pixel is ever posted, stored or sent. The background worker closes the
// document to stop (pause, completion, a refusal), which ends the camera at once.

// The build aliases this to face-api's build without its own TensorFlow.js, so one copy serves both.
import * as faceapi from '@vladmandic/face-api';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { faceScores, byProminence } from '../lib/facial/face-scores.ts';
import { startVoiceListener } from './voice-listener.js';

/** One analysed frame per second (the spec asks for at least one). */
export const SAMPLE_INTERVAL_MS = 1_000;
/**
 * The detector's settings: the engine's score threshold (facial-engine/face-model.ts), a smaller
 * input (224 rather than the engine's 320) from a 320x240 capture. A tester sits close to the
 * camera, so the face is large in the frame, and this keeps a frame near half the time on a slow
 * laptop (npm run bench -- extension-signals: 135 ms at 320 and 640x480, 83 ms here).
 */
const DETECTOR = { inputSize: 224, scoreThreshold: 0.5 };
/** The camera's frames as analysed. */
const CAPTURE = { width: 320, height: 240 };

const video = /** @type {HTMLVideoElement} */ (document.getElementById('camera'));

/** @param {unknown} message */
const tell = (message) =>
  chrome.runtime.sendMessage({ .../** @type {object} */ (message), from: 'offscreen' });

async function loadModel() {
  setWasmPaths(chrome.runtime.getURL('wasm/'));
  // The threaded build starts its workers from blob: URLs, which the extension's CSP refuses.
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  await tf.setBackend('wasm');
  await tf.ready();
  // A path, not a URL: face-api takes only http(s) URLs as absolute.
  const models = '/models';
  await faceapi.nets.tinyFaceDetector.loadFromUri(models);
  await faceapi.nets.faceLandmark68TinyNet.loadFromUri(models);
  await faceapi.nets.faceExpressionNet.loadFromUri(models);
}

/** The scores of the frame on screen now: a face's, or none. */
async function analyse() {
  const started = performance.now();
  const found = await faceapi
    .detectAllFaces(video, new faceapi.TinyFaceDetectorOptions(DETECTOR))
    .withFaceLandmarks(true)
    .withFaceExpressions();
  const faces = byProminence(
    found.map((face) => ({
      expressions: /** @type {Record<string, number>} */ ({ ...face.expressions }),
      landmarks: face.landmarks.positions.map(({ x, y }) => ({ x, y })),
      score: face.detection.score,
      box: { width: face.detection.box.width, height: face.detection.box.height },
    })),
  );
  return { scores: faces[0] ? faceScores(faces[0]) : null, analysisMs: performance.now() - started };
}

async function watchCamera() {
  /** @type {MediaStream} */
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: CAPTURE, audio: false });
  } catch (error) {
    await tell({ type: 'facial-unavailable', reason: error instanceof Error ? error.name : String(error) });
    return;
  }
  video.srcObject = stream;
  await video.play();
  try {
    await loadModel();
  } catch (error) {
    for (const track of stream.getTracks()) track.stop();
    await tell({
      type: 'facial-unavailable',
      reason: `model: ${error instanceof Error ? error.message : String(error)}`,
    });
    return;
  }
  await tell({ type: 'facial-started' });
  // Samples one after another: a slow analysis delays the next sample instead of piling them up.
  try {
    for (;;) {
      const due = performance.now() + SAMPLE_INTERVAL_MS;
      if (stream.getVideoTracks().every((track) => track.readyState === 'ended'))
        throw new Error('the camera stopped');
      const timestamp = new Date().toISOString();
      const { scores, analysisMs } = await analyse();
      await tell({ type: 'facial-frame', timestamp, scores, analysisMs });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
    }
  } catch (error) {
    // The camera was unplugged or taken, or the model failed: say so rather than look recording.
    for (const track of stream.getTracks()) track.stop();
    await tell({
      type: 'facial-unavailable',
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

const wanted = new URLSearchParams(location.search);
if (wanted.get('camera') === '1') void watchCamera();
if (wanted.get('microphone') === '1') void startVoiceListener(tell);
