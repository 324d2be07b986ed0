import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import {
  OUTLINE_COLOUR,
  RRWEB_SCRIPT,
  screenshotMoment,
} from '../../activities/recordings/moment-screenshot.ts';
import { testConfig } from '../support/config.ts';

/** How many pixels of the picture are the outline's red. */
async function outlinePixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (Math.abs(data[i]! - 0xd0) < 24 && data[i + 1]! < 40 && data[i + 2]! < 40) count += 1;
  return count;
}

// The picture of a finding's moment (issue 32, point 3): a real rrweb recording of a page, made in
// Chromium, replayed on the server up to a moment, the finding's element outlined.
describe('a screenshot of a moment, replayed from the DOM recording', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: Server;
  let hits = 0;
  before(async () => {
    browser = await chromium.launch({
      executablePath: testConfig().audits.chromiumPath,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    server = createServer((_request, response) => {
      hits += 1;
      response.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  });
  after(async () => {
    await browser.close();
    server.close();
  });

  /** Records a page in Chromium: a dialog opens, then its text changes. Returns the events and the moments. */
  async function recordDialog() {
    const { port } = server.address() as AddressInfo;
    const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
    await page.setContent(`<!doctype html><html lang="en"><head><style>
        body { font: 16px sans-serif; margin: 20px } #dialog { border: 1px solid #333; padding: 20px; width: 300px }
      </style></head><body><h1>Checkout</h1><button id="pay">Pay</button>
      <img alt="logo" src="http://127.0.0.1:${port}/logo.png"></body></html>`);
    await page.addScriptTag({ content: RRWEB_SCRIPT });
    // A string: the test's compiler would name an arrow function with a helper the page lacks.
    await page.evaluate(
      'window.events = []; rrweb.record({ emit(event) { window.events.push(event); }, maskAllInputs: true })',
    );
    await page.waitForTimeout(200);
    const before = Date.now();
    await page.waitForTimeout(200);
    await page.evaluate(() => {
      const dialog = document.createElement('div');
      dialog.id = 'dialog';
      dialog.setAttribute('role', 'dialog');
      dialog.textContent = 'Your card was declined';
      document.body.append(dialog);
    });
    await page.waitForTimeout(300);
    const shown = Date.now();
    await page.waitForTimeout(300);
    await page.evaluate(() => document.getElementById('dialog')!.remove());
    await page.waitForTimeout(200);
    const events = await page.evaluate(() => (window as unknown as { events: unknown[] }).events);
    await page.close();
    return { events, before, shown };
  }

  it('shows the page as it was at the moment, the element outlined, without fetching anything', async () => {
    const { events, before, shown } = await recordDialog();
    hits = 0;
    const moment = await screenshotMoment(browser, { events, at: shown, selector: '#dialog' });
    assert.equal(moment.outlined, true);
    assert.deepEqual([moment.width, moment.height], [800, 600]);
    const meta = await sharp(moment.png).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 800, 600]);
    assert.ok((await outlinePixels(moment.png)) > 400, 'the outline is drawn');
    assert.equal(OUTLINE_COLOUR, '#d00000');

    // Before the dialog opened, and after it closed, it is not there to outline.
    const earlier = await screenshotMoment(browser, { events, at: before, selector: '#dialog' });
    assert.equal(earlier.outlined, false);
    assert.equal(await outlinePixels(earlier.png), 0);
    const later = await screenshotMoment(browser, { events, at: shown + 5_000, selector: '#dialog' });
    assert.equal(later.outlined, false);
    // The recording's image address is never requested by the replay.
    assert.equal(hits, 0);
  });

  it('takes a selector the page cannot read, or none, and still makes the picture', async () => {
    const { events, shown } = await recordDialog();
    for (const selector of ['div[', null]) {
      const moment = await screenshotMoment(browser, { events, at: shown, selector });
      assert.equal(moment.outlined, false);
      assert.equal((await sharp(moment.png).metadata()).format, 'png');
    }
  });
});
