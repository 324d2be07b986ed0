// The face model on Node: face-api's tiny face detector, 68-point tiny landmarks and expression
// nets on TensorFlow.js's WebAssembly backend. Weights and the .wasm files come from the installed
// packages; nothing is downloaded.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import sharp from 'sharp';
import type * as FaceApi from '@vladmandic/face-api';
import { byProminence, type FaceObservation } from '../lib/facial/face-scores.ts';

const require = createRequire(import.meta.url);
// The package's Node build for the wasm backend has no typings of its own; its API is the package's.
const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js') as typeof FaceApi;
const wasm = require('@tensorflow/tfjs-backend-wasm') as { setWasmPaths(prefix: string): void };

export const MODEL_DIR = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
const WASM_DIR = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + '/';

/** Images are scaled down to this size (the longer side) before detection: faces stay large enough. */
export const ANALYSIS_SIZE = 640;
/** The detector's input size (a multiple of 32); the extension uses the same. */
export const DETECTOR_INPUT_SIZE = 320;
export const DETECTOR_MIN_SCORE = 0.5;

/** An image the engine will not read: not JPEG, PNG or WebP, or not an image at all. */
export class UnreadableImageError extends Error {}

const READABLE_FORMATS = new Set(['jpeg', 'png', 'webp']);

let loaded: Promise<void> | undefined;

/** Loads the backend and the three nets once per process. */
export function loadFaceModel(): Promise<void> {
  loaded ??= (async () => {
    wasm.setWasmPaths(WASM_DIR);
    // The same module instance face-api's Node build requires.
    await tf.setBackend('wasm');
    await tf.ready();
    await faceapi.nets.tinyFaceDetector.loadFromDisk(MODEL_DIR);
    await faceapi.nets.faceLandmark68TinyNet.loadFromDisk(MODEL_DIR);
    await faceapi.nets.faceExpressionNet.loadFromDisk(MODEL_DIR);
  })();
  return loaded;
}

/** The image's pixels as RGB, scaled to fit ANALYSIS_SIZE, upright as EXIF says. */
async function decode(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  try {
    const pipeline = sharp(image, { failOn: 'error', limitInputPixels: 50_000_000 });
    const { format } = await pipeline.metadata();
    if (!format || !READABLE_FORMATS.has(format))
      throw new UnreadableImageError(`format ${format ?? 'unknown'}`);
    const { data, info } = await pipeline
      .rotate()
      .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof UnreadableImageError) throw error;
    throw new UnreadableImageError((error as Error).message);
  }
}

/** Every face in the image, the most prominent first; none is an empty list. */
export async function observeFaces(image: Buffer): Promise<FaceObservation[]> {
  await loadFaceModel();
  const { data, width, height } = await decode(image);
  const tensor = tf.tensor3d(data, [height, width, 3], 'int32');
  try {
    const found = await faceapi
      .detectAllFaces(
        // face-api declares its own copy of the tfjs types: the same class, a different declaration.
        tensor as unknown as FaceApi.TNetInput,
        new faceapi.TinyFaceDetectorOptions({
          inputSize: DETECTOR_INPUT_SIZE,
          scoreThreshold: DETECTOR_MIN_SCORE,
        }),
      )
      .withFaceLandmarks(true)
      .withFaceExpressions();
    return byProminence(
      found.map((face) => ({
        expressions: { ...face.expressions },
        landmarks: face.landmarks.positions.map(({ x, y }) => ({ x, y })),
        score: face.detection.score,
        box: { width: face.detection.box.width, height: face.detection.box.height },
      })),
    );
  } finally {
    tensor.dispose();
  }
}
