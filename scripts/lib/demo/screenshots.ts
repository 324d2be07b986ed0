import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { actAsPeople, type PageMoment } from './page-person.ts';
import { PrintedLines } from './printed-lines.ts';
import { runDemo, type DemoSettings } from './run-demo.ts';

export interface ScreenshotSettings {
  /** The demo to run by hand, the people played by actAsPeople (its `byHand` and `print` are set here). */
  readonly demo: Omit<DemoSettings, 'byHand' | 'print'>;
  readonly chromiumPath: string;
  /** Where the PNGs go: `outreach-queue.png` and `review-page.png`. */
  readonly outDir: string;
  readonly print?: (line: string) => void;
}

/**
 * The pictures of the pages in docs/: a by-hand demo whose people are played by a program, with
 * Chromium opening the outreach queue and the review page as that person sees them (their cookies)
 * just before they act on it. Returns the files written.
 */
export async function takeScreenshots(settings: ScreenshotSettings): Promise<string[]> {
  await mkdir(settings.outDir, { recursive: true });
  const browser = await chromium.launch({ executablePath: settings.chromiumPath, args: ['--no-sandbox'] });
  const written: string[] = [];
  try {
    const shoot = async ({ name, path, cookies }: PageMoment) => {
      const context = await browser.newContext({
        viewport: { width: 1100, height: 900 },
        reducedMotion: 'reduce',
      });
      try {
        // The login is what opens the page; the page sets its own CSRF cookie.
        await context.addCookies([
          { name: 'session', value: cookies.get('session')!, url: settings.demo.baseUrl },
        ]);
        const page = await context.newPage();
        await page.goto(settings.demo.baseUrl + path, { waitUntil: 'load' });
        const file = join(settings.outDir, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        written.push(file);
      } finally {
        await context.close();
      }
    };
    const printed = new PrintedLines(settings.print);
    await Promise.all([
      runDemo({ ...settings.demo, byHand: true, print: printed.print }),
      actAsPeople(settings.demo.baseUrl, printed, shoot),
    ]);
  } finally {
    await browser.close();
  }
  return written;
}
