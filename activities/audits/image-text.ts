import type { Page } from 'playwright-core';
import sharp from 'sharp';
import type { RawFinding } from './keyboard-check.ts';
import { capturePage, type Pixels } from './page-capture.ts';
import { textRecognizer, type ReadWord } from './text-recognition.ts';

/** Images one audit reads at most, largest first. */
const MAX_IMAGES = 8;
/** The time reading takes at most, and at most this share of what is left before the Tab walk's end. */
const BUDGET_MS = 2_500;
const BUDGET_SHARE = 1 / 3;
/** Less time than this left, and no image is read (a small picture takes some 50 to 150 ms). */
const MIN_READ_MS = 200;
/**
 * Tesseract reads letters best at some 20 to 40 pixels tall: a small picture is scaled up until its
 * shorter side is this long (a button's "Press me!" at 84 by 45 pixels was read only at four
 * times its size), at most MAX_SCALE times; a large one down to MAX_READ_PIXELS.
 */
const SHORT_SIDE = 180;
const MAX_SCALE = 4;
const MAX_READ_PIXELS = 1_500_000;

/**
 * What counts as text in a picture. Words the recogniser is fairly sure of (MIN_CONFIDENCE), of two
 * letters or more and mostly letters, MIN_LETTERS letters in all, spanning MIN_SPAN of the picture's
 * width: the text is what the picture is of, not a sign in a photograph or a single letter. Set on
 * W3C ACT 0va7u6's pictures (docs/decisions/audits.md): its images of text read at confidence 68 to
 * 96 and span 0.73 to 0.94 of their width; the photographs' best words ("YT" in Times Square, "Ai nr"
 * among books) were under 4 letters or within a fifth of the width.
 */
const MIN_CONFIDENCE = 60;
const MIN_LETTERS = 4;
const MIN_SPAN = 0.4;

/** What the kit's textImages() answers for one element (page-script.js). */
interface TextImage {
  readonly selector: string;
  readonly box: {
    readonly top: number;
    readonly left: number;
    readonly width: number;
    readonly height: number;
  };
}

const lettersIn = (text: string) => text.match(/\p{L}/gu)?.length ?? 0;

/** The text a picture `width` pixels wide shows, by the words read in it; undefined for none. */
export function legibleText(words: readonly ReadWord[], width: number): string | undefined {
  const kept = words.filter((word) => {
    const letters = lettersIn(word.text);
    return word.confidence >= MIN_CONFIDENCE && letters >= 2 && letters >= [...word.text].length / 2;
  });
  if (kept.reduce((sum, word) => sum + lettersIn(word.text), 0) < MIN_LETTERS) return undefined;
  const span = Math.max(...kept.map((word) => word.right)) - Math.min(...kept.map((word) => word.left));
  return span >= MIN_SPAN * width ? kept.map((word) => word.text).join(' ') : undefined;
}

/** One image cut out of the capture and scaled for reading, as a PNG; undefined when off the capture. */
async function pictureOf(
  pixels: Pixels,
  box: TextImage['box'],
): Promise<{ png: Buffer; width: number } | undefined> {
  const left = Math.floor(box.left);
  const top = Math.floor(box.top);
  const width = Math.min(pixels.width - left, Math.ceil(box.width));
  const height = Math.min(pixels.height - top, Math.ceil(box.height));
  if (width < 1 || height < 1) return undefined;
  const scale = Math.min(
    MAX_SCALE,
    Math.max(1, SHORT_SIDE / Math.min(width, height)),
    Math.sqrt(MAX_READ_PIXELS / (width * height)),
  );
  const scaled = {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
  const png = await sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 },
  })
    .extract({ left, top, width, height })
    .resize(scaled)
    .greyscale()
    .png()
    .toBuffer();
  return { png, width: scaled.width };
}

const quoted = (text: string) => (text.length > 80 ? `${text.slice(0, 79)}…` : text);

/**
 * Images that show text (1.4.5, 1.4.9), read by text recognition: the kit lists the page's images
 * and hides the page's own text, one capture shows the images as drawn (a background image, an SVG,
 * a button), and each is read, largest first, while the budget lasts (the rest unjudged).
 */
export async function imageTextFindings(page: Page, walkDeadline: number): Promise<RawFinding[]> {
  const deadline = Date.now() + Math.min(BUDGET_MS, (walkDeadline - Date.now()) * BUDGET_SHARE);
  if (Date.now() + MIN_READ_MS >= deadline) return [];
  const images = await page.evaluate<TextImage[]>(`window.__auditKit.textImages(${MAX_IMAGES})`);
  if (!images.length) return [];
  const pixels = await capturePage(page, Math.max(...images.map(({ box }) => box.top + box.height))).finally(
    () => page.evaluate('window.__auditKit.showText()'),
  );
  if (!pixels) return [];
  const findings: RawFinding[] = [];
  for (const image of images) {
    if (Date.now() + MIN_READ_MS >= deadline) break;
    const picture = await pictureOf(pixels, image.box);
    if (!picture) continue;
    let words: ReadWord[];
    try {
      words = await textRecognizer.read(picture.png, deadline - Date.now());
    } catch {
      // The recogniser did not start, failed or ran out of time: these images stay unjudged.
      break;
    }
    const text = legibleText(words, picture.width);
    if (text)
      findings.push({
        ruleId: 'image-of-text',
        element: image.selector,
        description: `This image shows the text “${quoted(text)}” (read by text recognition): as a picture it cannot be resized, recoloured or reflowed as text can`,
      });
  }
  return findings;
}
