import { rmSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { buildExtension, serviceOriginOf, setServiceOrigin } from '../../../scripts/lib/extension-build.ts';
import { FULL_CHROMIUM_PATH } from '../../../scripts/lib/tools.ts';

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
 * The build, pointed at the service at `origin` (a test's API: the one origin the extension trusts),
 * in a copy of its own made once per process; each launch points it anew (one browser runs at a time).
 */
let servedCopy: Promise<string> | undefined;
export async function extensionFor(origin: string): Promise<string> {
  servedCopy ??= builtExtension().then(async () => {
    const folder = `${EXTENSION_DIR}-for-service`;
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    await cp(EXTENSION_DIR, folder, { recursive: true });
    return folder;
  });
  const folder = await servedCopy;
  await setServiceOrigin(folder, serviceOriginOf(origin));
  return folder;
}

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
  /**
   * Lets the extension be given a site without the browser's dialog, which a test cannot press: the
   * tester adds it in the browser's settings for the extension (chrome://extensions, Site access),
   * and the extension's next request for it is answered at once.
   */
  allowSiteInSettings(origin: string): Promise<void>;
  /** The extension holds a site, as after an earlier session's Allow: allowed, then asked for in a click. */
  allowSite(origin: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium with the extension loaded unpacked, in a fresh profile (so chrome.storage starts
 * empty), headless: Chromium runs MV3 extensions headless in a persistent context. The extension is
 * built for the service at `options.service` (the API as the test's extension reaches it).
 */
export async function launchExtensionBrowser(
  camera: FakeCamera | undefined,
  options: { readonly service: string; readonly proxy?: string | undefined },
): Promise<ExtensionBrowser> {
  const extensionDir = await extensionFor(options.service);
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
    executablePath: FULL_CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1024, height: 700 },
    // Playwright sends loopback through the proxy too (Chromium's `<-loopback>` rule).
    ...(options.proxy ? { proxy: { server: options.proxy } } : {}),
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
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
    /** chrome://extensions' own API, as its Site access section uses it. */
    const allowSiteInSettings = async (origin: string) => {
      const settings = await context.newPage();
      await settings.goto('chrome://extensions');
      const added = await settings.evaluate(
        ([id, pattern]) =>
          (
            globalThis as unknown as {
              chrome: { developerPrivate: { addHostPermission(id: string, host: string): Promise<void> } };
            }
          ).chrome.developerPrivate
            .addHostPermission(id!, pattern!)
            .then(
              () => 'added',
              (error: Error) => error.message,
            ),
        [extensionId, `${new URL(origin).origin}/*`],
      );
      await settings.close();
      if (added !== 'added') throw new Error(`the browser did not add ${origin}: ${added}`);
    };
    /** Then a click in a page of the extension asks for it, as the popup's Start does. */
    const allowSite = async (origin: string) => {
      await allowSiteInSettings(origin);
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/access.html`);
      await page.evaluate(
        (asked) => {
          const { permissions } = (
            globalThis as unknown as {
              chrome: { permissions: { request(p: { origins: string[] }): Promise<boolean> } };
            }
          ).chrome;
          const button = document.createElement('button');
          button.id = 'ask-for-site';
          button.textContent = 'Ask';
          button.addEventListener('click', () => {
            void permissions.request({ origins: [asked] }).then((granted) => {
              button.dataset.granted = String(granted);
            });
          });
          document.body.append(button);
        },
        `${new URL(origin).origin}/*`,
      );
      await page.click('#ask-for-site');
      await page.locator('#ask-for-site[data-granted="true"]').waitFor({ timeout: 10_000 });
      await page.close();
    };
    return {
      context,
      extensionId,
      worker,
      async openPopup() {
        const popup = await context.newPage();
        await popup.goto(`chrome-extension://${extensionId}/popup.html`);
        return popup;
      },
      allowSite,
      allowSiteInSettings,
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
