import assert from 'node:assert/strict';
import {
  contrastFindings,
  worstContrast,
  type BackgroundText,
} from '../../activities/audits/background-contrast.ts';
import type { Pixels } from '../../activities/audits/page-capture.ts';

/** A picture `width` x 10 pixels whose column x has the grey `shade(x)`. */
function picture(width: number, shade: (x: number) => number): Pixels {
  const data = new Uint8Array(width * 10 * 3);
  for (let y = 0; y < 10; y++)
    for (let x = 0; x < width; x++) data.fill(shade(x), (y * width + x) * 3, (y * width + x) * 3 + 3);
  return { data, width, height: 10, channels: 3 };
}

const text = (grey: number, fields: Partial<BackgroundText> = {}): BackgroundText => ({
  selector: 'p',
  rects: [{ top: 0, left: 0, width: 40, height: 10 }],
  color: { r: grey, g: grey, b: grey, a: 1 },
  shadow: null,
  fontSize: 16,
  large: false,
  ...fields,
});

describe('text over a background image or gradient, judged from its pixels (background-contrast.ts)', () => {
  it('takes each letter at the best contrast behind it and the text at its worst letter', () => {
    // #666 over white for 20 px (5.7:1), then black (3.7:1): the letters over black fail.
    const halves = picture(40, (x) => (x < 20 ? 255 : 0));
    assert.equal(worstContrast(text(0x66), halves)!.toFixed(2), '3.66');
    assert.deepEqual(
      contrastFindings(text(0x66), 3.66).map(({ ruleId }) => ruleId),
      ['background-contrast', 'background-contrast-enhanced'],
    );
    // Black and white stripes one pixel wide: every letter has white behind some of it.
    const stripes = picture(40, (x) => (x % 2 ? 255 : 0));
    assert.ok(worstContrast(text(0x66), stripes)! > 5.7);
    // Beyond the picture: nothing to judge.
    assert.equal(
      worstContrast(text(0x66, { rects: [{ top: 50, left: 0, width: 10, height: 10 }] }), halves),
      undefined,
    );
  });

  it('blends translucent text over each pixel, and applies the large-text ratios', () => {
    const white = picture(40, () => 255);
    // Black at 30 % over white is a light grey (about 2:1).
    const faint = worstContrast(text(0, { color: { r: 0, g: 0, b: 0, a: 0.3 } }), white)!;
    assert.ok(faint > 1.8 && faint < 2.3, String(faint));
    assert.deepEqual(
      contrastFindings(text(0, { large: true }), 3.5).map(({ ruleId }) => ruleId),
      ['background-contrast-enhanced'],
    );
    assert.deepEqual(contrastFindings(text(0, { large: true }), 4.6), []);
    assert.deepEqual(
      contrastFindings(text(0), 5).map(({ ruleId }) => ruleId),
      ['background-contrast-enhanced'],
    );
  });

  it("a halo around each letter is its backdrop, judged at the halo's contrast; a translucent one is not", () => {
    const halo = { r: 0, g: 0, b: 0, a: 1 };
    assert.deepEqual(contrastFindings(text(255, { shadow: halo }), 1.2), []);
    // #777 on its black halo is 4.69:1: enough for AA, not for AAA.
    assert.deepEqual(
      contrastFindings(text(0x77, { shadow: halo }), 1.2).map(({ ruleId }) => ruleId),
      ['background-contrast-enhanced'],
    );
    assert.equal(contrastFindings(text(255, { shadow: { ...halo, a: 0.5 } }), 1.2).length, 2);
  });

  it('says the ratio rounded down, never the threshold it missed', () => {
    const [finding] = contrastFindings(text(0), 4.497);
    assert.match(finding!.description, /contrast of 4\.49:1 .*\(at least 4\.5:1 needed\)/);
  });
});
