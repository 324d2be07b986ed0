import type { Page } from 'playwright-core';
import sharp from 'sharp';

/** The capture stops this far down the page (CSS pixels): a banner, not a whole archive. */
const MAX_PAGE_HEIGHT = 8_000;
/** And this far across: a page that overflows sideways does not make a picture of hundreds of megabytes. */
const MAX_PAGE_WIDTH = 4_000;
/** The screenshot's own limit: a page whose capture stalls is left unjudged, not the audit failed. */
const SCREENSHOT_TIMEOUT_MS = 2_000;

/** The pixels of a picture, `channels` bytes each (capturePage gives four, RGBA), row by row. */
export interface Pixels {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly channels: number;
}

/**
 * The page from its top down to `bottom` (page coordinates, CSS pixels; at most MAX_PAGE_HEIGHT),
 * as wide as it is laid out (at most MAX_PAGE_WIDTH), one pixel per CSS pixel; undefined when the
 * capture failed or stalled, which leaves what it was for unjudged rather than the audit failed.
 */
export async function capturePage(page: Page, bottom: number): Promise<Pixels | undefined> {
  let png: Buffer;
  try {
    const height = Math.min(MAX_PAGE_HEIGHT, Math.ceil(bottom));
    const width = Math.min(
      MAX_PAGE_WIDTH,
      await page.evaluate<number>('document.documentElement.scrollWidth'),
    );
    png = await page.screenshot({
      type: 'png',
      fullPage: true,
      scale: 'css',
      caret: 'hide',
      timeout: SCREENSHOT_TIMEOUT_MS,
      clip: { x: 0, y: 0, width: Math.max(1, width), height: Math.max(1, height) },
    });
  } catch {
    return undefined;
  }
  // Four channels whatever the PNG holds (a grey or paletted capture would be read wrong otherwise).
  const { data, info } = await sharp(png).toColourspace('srgb').ensureAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  return { data, width: info.width, height: info.height, channels: info.channels };
}
