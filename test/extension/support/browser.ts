import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { buildExtension } from '../../../scripts/lib/extension-build.ts';
import { testConfig } from '../../support/config.ts';

/**
 * The extension as `npm run build:extension` packages it, built once per mocha process into a folder
 * of its own (`npm test` runs processes at once, and a build empties its folder first), removed
 * when the process ends.
 */
export const EXTENSION_DIR = join(tmpdir(), `usability-extension-under-test-${process.pid}`);
let built: Promise<void> | undefined;
/** Builds the extension into EXTENSION_DIR once per process. */
export const builtExtension = () => {
  if (!built) {
    process.once('exit', () => rmSync(EXTENSION_DIR, { recursive: true, force: true }));
    built = buildExtension(EXTENSION_DIR);
  }
  return built;
};

/**
 * Chromium's fake devices: a Y4M video and a WAV sound it plays in a loop (a device without a file
 * plays Chromium's own pattern); `deny` refuses every permission prompt. Permissions start as
 * `prompt`, as in a new profile: a test allows a device as the tester would answer the browser's
 * prompt, with `context.grantPermissions` (headless Chromium shows no prompt).
 */
export type FakeCamera = { readonly video?: string; readonly audio?: string } | 'deny';

export interface ExtensionBrowser {
  readonly context: BrowserContext;
  readonly extensionId: string;
  /** The extension's service worker (background.js). */
  readonly worker: Worker;
  /** The popup page, opened in a tab (it is the same page the toolbar button shows). */
  openPopup(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium with the extension loaded unpacked, in a fresh profile (so chrome.storage starts
 * empty), headless: Chromium runs MV3 extensions headless in a persistent context.
 */
export async function launchExtensionBrowser(
  camera?: FakeCamera,
  options: { readonly proxy?: string } = {},
): Promise<ExtensionBrowser> {
  await builtExtension();
  const profile = await mkdtemp(join(tmpdir(), 'usability-extension-'));
  const media =
    camera === undefined
      ? []
      : camera === 'deny'
        ? ['--use-fake-device-for-media-stream', '--deny-permission-prompts']
        : [
            '--use-fake-device-for-media-stream',
            ...(camera.video ? [`--use-file-for-fake-video-capture=${camera.video}`] : []),
            ...(camera.audio ? [`--use-file-for-fake-audio-capture=${camera.audio}`] : []),
          ];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: testConfig().audits.chromiumPath,
    headless: true,
    viewport: { width: 1024, height: 700 },
    // Playwright sends loopback through the proxy too (Chromium's `<-loopback>` rule).
    ...(options.proxy ? { proxy: { server: options.proxy } } : {}),
    args: [
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      '--no-sandbox',
      '--disable-dev-shm-usage',
      '--disable-gpu',
      '--disable-background-networking',
      ...media,
    ],
  });
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    const extensionId = new URL(worker.url()).host;
    return {
      context,
      extensionId,
      worker,
      async openPopup() {
        const popup = await context.newPage();
        await popup.goto(`chrome-extension://${extensionId}/popup.html`);
        return popup;
      },
      async close() {
        await context.close();
        await rm(profile, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await context.close();
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
}
