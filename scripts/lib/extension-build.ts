// The packaged extension: extension/ as it is, plus the offscreen document's bundle (face-api and
// TensorFlow.js with its WebAssembly backend) and the files it loads at run time, all from the
// installed npm packages: the three nets' weights and the .wasm binaries. Nothing is downloaded.
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from './tools.ts';
import { zipFolder } from './zip.ts';

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const SOURCE = join(PROJECT_ROOT, 'extension');
/** Loaded unpacked, or zipped for a store. */
export const BUILT_EXTENSION_DIR = join(PROJECT_ROOT, 'dist', 'extension');
export const BUILT_EXTENSION_ZIP = join(PROJECT_ROOT, 'dist', 'usability-session-recorder.zip');

/** The extension's own files copied as they are (the offscreen script is bundled instead). */
const COPIED = /\.(js|html|css|json)$/;
const NOT_SHIPPED = new Set(['tsconfig.json', 'offscreen.js']);
/** The nets the offscreen document loads (the same three as the self-hosted engine). */
const NETS = ['tiny_face_detector_model', 'face_landmark_68_tiny_model', 'face_expression_model'];

/** Builds the loadable folder at `outDir` (emptied first); with `zip`, the archive too. */
export async function buildExtension(outDir = BUILT_EXTENSION_DIR, zip?: string): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(join(outDir, 'models'), { recursive: true });
  await mkdir(join(outDir, 'wasm'), { recursive: true });
  for (const file of await readdir(SOURCE)) {
    if (COPIED.test(file) && !NOT_SHIPPED.has(file)) await copyFile(join(SOURCE, file), join(outDir, file));
  }
  await build({
    entryPoints: [join(SOURCE, 'offscreen.js')],
    outfile: join(outDir, 'offscreen.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'chrome111',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
    // face-api's build that leaves TensorFlow.js to the bundle, so that one copy serves both.
    alias: {
      '@vladmandic/face-api': join(packageDir('@vladmandic/face-api'), 'dist/face-api.esm-nobundle.js'),
    },
    // TensorFlow.js names Node modules it uses only under Node.
    external: ['fs', 'path', 'crypto', 'worker_threads', 'perf_hooks', 'os'],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const models = join(packageDir('@vladmandic/face-api'), 'model');
  for (const file of await readdir(models)) {
    if (NETS.some((net) => file.startsWith(`${net}-weights_manifest.json`) || file === `${net}.bin`))
      await copyFile(join(models, file), join(outDir, 'models', file));
  }
  const wasm = join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist');
  for (const file of await readdir(wasm)) {
    if (file.endsWith('.wasm')) await copyFile(join(wasm, file), join(outDir, 'wasm', file));
  }
  if (zip) await zipFolder(outDir, zip);
}
