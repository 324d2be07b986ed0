import type { Page } from 'playwright-core';
import type { RawFinding } from './keyboard-check.ts';
import { capturePage, type Pixels } from './page-capture.ts';

/** Text over an image or a gradient that one audit judges at most: one screenshot covers them all. */
const MAX_TEXTS = 40;
/** Pixels read per text at most: a long paragraph is sampled on a grid instead of every pixel. */
const MAX_PIXELS_PER_TEXT = 40_000;

interface Rgba {
  readonly r: number;
  readonly g: number;
  readonly b: number;
  readonly a: number;
}

interface Box {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly height: number;
}

/** What the kit's backgroundTexts() answers for one element (page-script.js). */
export interface BackgroundText {
  readonly selector: string;
  readonly rects: readonly Box[];
  readonly color: Rgba;
  /**
   * The colour of its text shadow when the shadow is a halo (no offset, a blur): a backdrop of its
   * own around each letter. A drop shadow off to one side is not one.
   */
  readonly shadow: Rgba | null;
  readonly fontSize: number;
  readonly large: boolean;
}

const channel = (v: number) => {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const luminance = (r: number, g: number, b: number) =>
  0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const contrast = (x: number, y: number) => (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);

/** A colour with its alpha laid over an opaque one. */
const over = (top: Rgba, r: number, g: number, b: number) =>
  luminance(
    top.r * top.a + r * (1 - top.a),
    top.g * top.a + g * (1 - top.a),
    top.b * top.a + b * (1 - top.a),
  );

/**
 * The text's contrast as W3C's ACT rules measure text over a varied background (afw4f7, 09o5cg):
 * each character at the highest contrast its colour (blended over the pixels when translucent)
 * reaches against the pixels behind it, the text at its worst character. A character is a cell of
 * half the font size across each line box. Undefined when no line box falls inside the picture.
 */
export function worstContrast(text: BackgroundText, pixels: Pixels): number | undefined {
  const cell = Math.max(4, Math.round(text.fontSize / 2));
  const area = text.rects.reduce((sum, box) => sum + box.width * box.height, 0);
  // A long paragraph is read on a grid rather than at every pixel.
  const step = Math.max(1, Math.ceil(Math.sqrt(area / MAX_PIXELS_PER_TEXT)));
  let worst: number | undefined;
  for (const box of text.rects) {
    const top = Math.max(0, Math.floor(box.top));
    const bottom = Math.min(pixels.height, Math.ceil(box.top + box.height));
    const right = Math.min(pixels.width, Math.ceil(box.left + box.width));
    for (let left = Math.max(0, Math.floor(box.left)); left < right; left += cell) {
      let best: number | undefined;
      for (let y = top; y < bottom; y += step) {
        for (let x = left; x < Math.min(right, left + cell); x += step) {
          const at = (y * pixels.width + x) * pixels.channels;
          const [r, g, b] = [pixels.data[at]!, pixels.data[at + 1]!, pixels.data[at + 2]!];
          const ratio = contrast(over(text.color, r, g, b), luminance(r, g, b));
          if (best === undefined || ratio > best) best = ratio;
        }
      }
      if (best !== undefined && (worst === undefined || best < worst)) worst = best;
    }
  }
  return worst;
}

/**
 * The contrast the text's halo gives each letter whatever the image behind it (W3C ACT afw4f7,
 * passed example 3); 1 without one.
 */
function haloContrast(text: BackgroundText): number {
  if (!text.shadow || text.shadow.a < 1) return 1;
  const { r, g, b } = text.shadow;
  return contrast(over(text.color, r, g, b), luminance(r, g, b));
}

/**
 * Findings for one text at its worst contrast (or its halo's, when higher): under the minimum
 * (4.5:1, 3:1 for large text) it fails 1.4.3 and, being under the enhanced ratio too, 1.4.6; under
 * the enhanced ratio only (7:1, 4.5:1), 1.4.6 (level AAA).
 */
export function contrastFindings(text: BackgroundText, worst: number): RawFinding[] {
  const [minimum, enhanced] = text.large ? [3, 4.5] : [4.5, 7];
  const measured = Math.max(worst, haloContrast(text));
  // Rounded down: a ratio of 4.497 must not read "4.50:1 (at least 4.5:1 needed)".
  const shown = (Math.floor(measured * 100) / 100).toFixed(2);
  const where = `Text over a background image or gradient has a contrast of ${shown}:1 behind its least legible letters`;
  const findings: RawFinding[] = [];
  if (measured < minimum)
    findings.push({
      ruleId: 'background-contrast',
      element: text.selector,
      description: `${where} (at least ${minimum}:1 needed)`,
    });
  if (measured < enhanced)
    findings.push({
      ruleId: 'background-contrast-enhanced',
      element: text.selector,
      description: `${where} (at least ${enhanced}:1 for enhanced contrast)`,
    });
  return findings;
}

/**
 * Text over a background image or gradient (which axe only asks to review), judged from the
 * rendered pixels behind it: the kit hides that text, one capture of the page (capturePage) shows
 * what is behind it, and each text is measured at its worst.
 */
export async function backgroundContrastFindings(page: Page): Promise<RawFinding[]> {
  const texts = await page.evaluate<BackgroundText[]>(`window.__auditKit.backgroundTexts(${MAX_TEXTS})`);
  if (!texts.length) return [];
  // A capture that failed or stalled leaves these texts unjudged, as axe leaves them: the rest of
  // the page's audit stands.
  const pixels = await capturePage(
    page,
    Math.max(...texts.flatMap(({ rects }) => rects.map((box) => box.top + box.height))),
  ).finally(() => page.evaluate('window.__auditKit.showText()'));
  if (!pixels) return [];
  return texts.flatMap((text) => {
    const worst = worstContrast(text, pixels);
    return worst === undefined ? [] : contrastFindings(text, worst);
  });
}
