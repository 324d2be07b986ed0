// The packaged extension: extension/ as it is, plus the offscreen document's bundle (face-api and
// TensorFlow.js with its WebAssembly backend; the voice-activity detector and the speech recogniser
// on onnxruntime-web) and the files it loads at run time, all from the installed npm packages: the
// face nets' weights, Silero VAD, Moonshine tiny and the .wasm binaries. Nothing is downloaded.
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { build, type BuildOptions } from 'esbuild';
import sharp from 'sharp';
import {
  RECORDER_PACKAGE_FILE,
  recorderFactsFileOf,
  type RecorderPackageFacts,
} from '../../lib/recorder-package.ts';
import { PROJECT_ROOT } from './tools.ts';
import { zipFolder } from './zip.ts';

/** A package's folder (each is a direct dependency; some export no `package.json` to resolve). */
const packageDir = (name: string) => join(PROJECT_ROOT, 'node_modules', name);

const SOURCE = join(PROJECT_ROOT, 'extension');
/** Loaded unpacked, or zipped for a store. */
export const BUILT_EXTENSION_DIR = join(PROJECT_ROOT, 'dist', 'extension');
export const BUILT_EXTENSION_ZIP = join(PROJECT_ROOT, 'dist', RECORDER_PACKAGE_FILE);

/** The extension's own files copied as they are (the offscreen script is bundled instead). */
const COPIED = /\.(js|html|css|json)$/;
/** Bundled instead (the two entry points) or only imported by them. */
const NOT_SHIPPED = new Set([
  'tsconfig.json',
  'offscreen.js',
  'speech-worker.js',
  'voice-listener.js',
  'speech-recogniser.js',
  'web-speech-recogniser.js',
  'recorder.js',
]);
/** The nets the offscreen document loads (the same three as the self-hosted engine). */
const NETS = ['tiny_face_detector_model', 'face_landmark_68_tiny_model', 'face_expression_model'];

/** onnxruntime-web's single WebAssembly build (SIMD; run with one thread). */
const ORT_FILES = ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'];
/** Silero VAD v5 and the audio worklet that feeds it. */
const VAD_FILES = ['silero_vad_v5.onnx', 'vad.worklet.bundle.min.js'];
/** Moonshine tiny, quantised: the speech recogniser. */
const MOONSHINE_FILES = ['encoder_model.onnx', 'decoder_model_merged.onnx'];

/** The screen recorder with rrweb: a content script, so one classic script (the benchmark builds it too). */
export const RECORDER_BUILD = {
  entryPoints: [join(SOURCE, 'recorder.js')],
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: 'chrome111',
  minify: true,
  legalComments: 'linked',
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** The sizes of the icon (extension/icon.svg) the manifest names, as `icons/icon-<size>.png`. */
export const ICON_SIZES = [16, 32, 48, 128] as const;

/** The service the source names (`npm start`'s), which a build for another replaces. */
const SOURCE_SERVICE_ORIGIN = 'http://localhost:3000';

/** The service's origin from an address (`https://usability.example/anything` gives its origin). */
export function serviceOriginOf(address: string): string {
  const url = new URL(address);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`not an http(s) address: ${address}`);
  return url.origin;
}

/**
 * Points a built folder at a service: the one origin whose API it reaches without asking and whose
 * session start pages may hand it a session (manifest `host_permissions` and the handoff content
 * script's `matches`, and `service-origin.js`). The build calls it; the tests call it on a copy for
 * their API's address.
 */
export async function setServiceOrigin(dir: string, origin: string): Promise<void> {
  for (const file of ['manifest.json', 'service-origin.js']) {
    const text = await readFile(join(SOURCE, file), 'utf8');
    if (!text.includes(SOURCE_SERVICE_ORIGIN))
      throw new Error(`${file} no longer names ${SOURCE_SERVICE_ORIGIN}`);
    await writeFile(join(dir, file), text.replaceAll(SOURCE_SERVICE_ORIGIN, serviceOriginOf(origin)));
  }
}

/**
 * Builds the loadable folder at `outDir` (emptied first) for the service at `serviceOrigin`; with
 * `zip`, the archive too.
 */
export async function buildExtension(
  outDir = BUILT_EXTENSION_DIR,
  zip?: string,
  serviceOrigin = SOURCE_SERVICE_ORIGIN,
): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'models'), { recursive: true });
  for (const folder of ['wasm', 'ort', 'vad', 'icons', join('models', 'moonshine')])
    await mkdir(join(outDir, folder), { recursive: true });
  for (const file of await readdir(SOURCE)) {
    if (COPIED.test(file) && !NOT_SHIPPED.has(file)) await copyFile(join(SOURCE, file), join(outDir, file));
  }
  await build({
    entryPoints: [join(SOURCE, 'offscreen.js'), join(SOURCE, 'speech-worker.js')],
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome111',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
    // The sentiment package loads languages other than English by name; only English is used.
    logOverride: { 'empty-glob': 'silent' },
    // face-api's build that leaves TensorFlow.js to the bundle, so that one copy serves both.
    alias: {
      '@vladmandic/face-api': join(packageDir('@vladmandic/face-api'), 'dist/face-api.esm-nobundle.js'),
    },
    // TensorFlow.js names Node modules it uses only under Node.
    external: ['fs', 'path', 'crypto', 'worker_threads', 'perf_hooks', 'os'],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await build({ ...RECORDER_BUILD, outdir: outDir });
  const icon = await readFile(join(SOURCE, 'icon.svg'));
  for (const size of ICON_SIZES)
    await sharp(icon, { density: 72 * (size / 128) * 4 })
      .resize(size, size)
      .png()
      .toFile(join(outDir, 'icons', `icon-${size}.png`));
  const models = join(packageDir('@vladmandic/face-api'), 'model');
  for (const file of await readdir(models)) {
    if (NETS.some((net) => file.startsWith(`${net}-weights_manifest.json`) || file === `${net}.bin`))
      await copyFile(join(models, file), join(outDir, 'models', file));
  }
  const wasm = join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  for (const file of await readdir(wasm)) {
    if (file.endsWith('.wasm')) await copyFile(join(wasm, file), join(outDir, 'wasm', file));
  }
  // onnxruntime-web's WebAssembly build (the voice-activity detector and the speech model run on it).
  const ort = join(packageDir('onnxruntime-web'), 'dist');
  for (const file of ORT_FILES) await copyFile(join(ort, file), join(outDir, 'ort', file));
  const vad = join(packageDir('@ricky0123/vad-web'), 'dist');
  for (const file of VAD_FILES) await copyFile(join(vad, file), join(outDir, 'vad', file));
  const moonshine = join(packageDir('@usefulsensors/moonshine-js'), 'dist', 'model', 'tiny', 'quantized');
  for (const file of MOONSHINE_FILES)
    await copyFile(join(moonshine, file), join(outDir, 'models', 'moonshine', file));
  await setServiceOrigin(outDir, serviceOrigin);
  if (zip) {
    await zipFolder(outDir, zip);
    await writeRecorderFacts(outDir, zip, serviceOrigin);
  }
}

/** What the service checks before it offers the zip (lib/recorder-package.ts). */
async function writeRecorderFacts(outDir: string, zip: string, serviceOrigin: string): Promise<void> {
  const manifest = JSON.parse(await readFile(join(outDir, 'manifest.json'), 'utf8')) as { version: string };
  const packed = await readFile(zip);
  const facts: RecorderPackageFacts = {
    serviceOrigin: serviceOriginOf(serviceOrigin),
    version: manifest.version,
    bytes: packed.length,
    sha256: createHash('sha256').update(packed).digest('hex'),
  };
  await writeFile(recorderFactsFileOf(zip), `${JSON.stringify(facts, null, 2)}\n`);
}
