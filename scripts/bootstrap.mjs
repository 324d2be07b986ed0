// Entry point of every npm script that needs the project's dependencies. Plain JavaScript with no
// imports beyond Node itself, because it runs before node_modules exists on a fresh machine.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const COMMANDS = {
  start: 'scripts/start.ts',
  test: 'scripts/test.ts',
  migrate: 'scripts/migrate.ts',
  seed: 'scripts/seed.ts',
  'db-check': 'scripts/db-check.ts',
  bench: 'scripts/bench.ts',
  demo: 'scripts/demo.ts',
  screenshots: 'scripts/screenshots.ts',
  setup: 'scripts/setup.ts',
  'build-extension': 'scripts/build-extension.ts',
};

function installedStamp() {
  const lock = readFileSync(`${root}/package-lock.json`);
  const manifest = readFileSync(`${root}/package.json`);
  return createHash('sha256').update(lock).update(manifest).digest('hex');
}

/** Installs dependencies when node_modules is missing or was installed from another lockfile. */
function ensureDependencies() {
  const stampFile = `${root}/node_modules/.usability-install-stamp`;
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === installedStamp()) return;
  // `npm ci`: exactly what the lockfile says, and the lockfile is never written (`npm install`
  // would rewrite it, leaving the work tree changed).
  console.log('[setup] installing dependencies (npm ci)...');
  // onnxruntime-node (a dependency of a dependency of the extension's speech model package, unused
  // here) would download CUDA libraries in its install script: nothing may download at install.
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL_CUDA: 'skip' },
  });
  if (result.status !== 0) {
    console.error('[setup] npm ci failed');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stampFile, installedStamp());
}

const [command, ...rest] = process.argv.slice(2);
const script = COMMANDS[command];
if (!script) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(COMMANDS).join('|')}> [args]`);
  process.exit(2);
}
ensureDependencies();
const child = spawn(process.execPath, ['--import', 'tsx', `${root}/${script}`, ...rest], {
  cwd: root,
  stdio: 'inherit',
});
// The child gets Ctrl-C from the terminal itself; forward only what is sent to us alone.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
