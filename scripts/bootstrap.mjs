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
  audit: 'scripts/audit.ts',
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

/**
 * Every change git sees in the work tree (tracked files changed, untracked files not ignored), one
 * `git status --porcelain` line each; null outside a git checkout or without git.
 */
function workTreeChanges() {
  const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (result.error || result.status !== 0) return null;
  return result.stdout.split('\n').filter((line) => line !== '');
}

/**
 * The commands that must leave a clean checkout clean, install included. They are checked on
 * every run that starts from a clean tree (a fresh clone, as CI's): that is where an install that
 * rewrites the lockfile or a test that leaves a file behind shows. `npm start` is left out: it
 * runs while its developer edits.
 */
const KEEPS_TREE_CLEAN = new Set(['test', 'setup']);

/** Fails the run when it changed a tree that was clean when it started. */
function checkTreeStillClean(changesAtStart, code) {
  if (changesAtStart?.length !== 0) return code;
  const changes = workTreeChanges() ?? [];
  if (!changes.length) return code;
  console.error(
    `[setup] npm ${command} changed a work tree that was clean when it started (it must leave it as it found it):`,
  );
  for (const change of changes) console.error(`  ${change}`);
  return code || 1;
}

/**
 * The Node.js the project runs on: the LTS binary its optional dependency `node-linux-<arch>`
 * installs (the one the Dockerfile ships), so what is tested is what ships whatever Node started
 * npm. Elsewhere (another platform, or an install without optional dependencies) the Node that
 * runs this script, said once.
 */
function projectRuntime() {
  const installed = `${root}/node_modules/.bin/node`;
  if (existsSync(installed)) return installed;
  console.log(`[setup] the project's Node.js binary is not installed here: running on ${process.version}`);
  return process.execPath;
}

const [command, ...rest] = process.argv.slice(2);
const script = COMMANDS[command];
if (!script) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(COMMANDS).join('|')}> [args]`);
  process.exit(2);
}
const changesAtStart = KEEPS_TREE_CLEAN.has(command) ? workTreeChanges() : null;
// Said, not silent: a check that cannot run must not pass for one that did.
if (KEEPS_TREE_CLEAN.has(command) && changesAtStart === null) {
  console.log('[setup] git status failed here: what this run leaves in the work tree is not checked');
} else if (changesAtStart?.length) {
  console.log('[setup] the work tree has changes: what this run leaves in it is not checked');
}
ensureDependencies();
const child = spawn(projectRuntime(), ['--import', 'tsx', `${root}/${script}`, ...rest], {
  cwd: root,
  stdio: 'inherit',
});
// The child gets Ctrl-C from the terminal itself; forward only what is sent to us alone.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
process.on('SIGINT', () => {});
child.on('exit', (code, signal) =>
  process.exit(checkTreeStillClean(changesAtStart, code ?? (signal ? 1 : 0))),
);
