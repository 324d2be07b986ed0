import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { annotatedScreenshots, auditPage } from '../../activities/audits/page-audit.ts';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { testConfig } from '../support/config.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { eventually } from './polling.ts';

describe('page audit in the browser pool', function () {
  this.timeout(60_000);
  let fixtures: FixtureServer;
  let pool: BrowserPool;

  before(async () => {
    fixtures = await startFixtureServer();
    pool = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: false, allowedHosts: [fixtures.hostPort] },
    });
  });
  after(async () => {
    await pool.close();
    await fixtures.stop();
  });

  it('an issue inside a shadow root is named "host >>> element" and gets its annotated screenshot', async () => {
    await pool.withPage(
      { viewport: { width: 1280, height: 800 }, timeoutMs: 30_000 },
      async (page, egress) => {
        const result = await auditPage(page, `${fixtures.url}/shadow-issue.html`, {
          categories: AUDIT_CATEGORIES,
          egress,
          navigationTimeoutMs: 20_000,
          walkDeadline: Date.now() + 20_000,
        });
        const missingAlt = result.issues.find((issue) => issue.ruleId === 'image-alt');
        assert.ok(missingAlt, JSON.stringify(result.issues, null, 1));
        assert.match(missingAlt.element, /^(#card|product-card) >>> (#photo|img)$/);
        const shots = await annotatedScreenshots(page, [missingAlt], 1);
        const shot = shots.get(missingAlt.issueId);
        assert.ok(shot, 'the element in the shadow root was found and outlined');
        assert.equal(shot.subarray(1, 4).toString(), 'PNG');
      },
    );
  });

  it('the outline of links and buttons a full audit compares (3.2.6): help by its words or path, in-page links by fragment, open shadow roots read, data links left out', async () => {
    await pool.withPage({ viewport: { width: 1280, height: 800 }, timeoutMs: 30_000 }, async (page) => {
      await page.goto(`${fixtures.url}/help/outline.html`);
      const outline = await page.evaluate<{ key: string; help?: string; element?: string }[]>(
        'window.__auditKit.contentOutline()',
      );
      const origin = fixtures.url;
      assert.deepEqual(
        outline.map(({ key, help }) => [key, help ?? null]),
        [
          [`home|${origin}/index.html`, null],
          [`questions|${origin}/help/faq.html`, 'self-help'],
          ['live chat|#', 'automated contact'],
          ['hello@example.com|mailto:hello@example.com', 'contact details'],
          [`arch support insoles|${origin}/shop/arch-support`, null],
          [`support us|${origin}/give`, null],
          ['back to top|#top', null],
          ['contact us|', 'contact'],
        ],
      );
      assert.match(outline.at(-1)!.element!, / >>> /);
    });
  });

  describe('refilling the pool', () => {
    let own: BrowserPool;
    const options = { viewport: { width: 1280, height: 800 }, timeoutMs: 30_000 };
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    // Long enough for a refill started with an audit to have opened its contexts.
    const REFILL_MS = 1_500;

    beforeEach(async () => {
      own = new BrowserPool({
        executablePath: testConfig().audits.chromiumPath,
        size: 2,
        egress: { allowPrivate: false, allowedHosts: [fixtures.hostPort] },
      });
      await own.start();
    });
    afterEach(() => own.close());

    it('a lone audit that leaves a warm context opens none while it runs; its own is replaced after', async () => {
      let used: BrowserContext | undefined;
      await own.withPage(options, async (page) => {
        used = page.context();
        await page.goto(`${fixtures.url}/clean.html`);
        await pause(REFILL_MS);
        const open = used.browser()!.contexts();
        assert.equal(open.length, 2, "the audit's context and the one still warm, nothing opening");
      });
      const browser = used!.browser()!;
      const settled = () => browser.contexts().length === 2 && !browser.contexts().includes(used!);
      assert.ok(
        await eventually(settled, 10_000),
        'the used context is closed and two warm contexts wait again',
      );
    });

    it('audits at once refill the pool while they run, so the next one finds a warm context', async () => {
      let inBoth = 0;
      const audit = () =>
        own.withPage(options, async (page) => {
          inBoth++;
          await eventually(() => inBoth === 2);
          const browser = page.context().browser()!;
          await eventually(() => browser.contexts().length >= 4, 10_000);
          return browser.contexts().length;
        });
      const open = await Promise.all([audit(), audit()]);
      assert.deepEqual(open, [4, 4], "both audits' contexts and two warm ones opened meanwhile");
    });
  });
});
