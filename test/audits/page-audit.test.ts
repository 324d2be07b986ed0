import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { annotatedScreenshots, auditPage } from '../../activities/audits/page-audit.ts';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import { testConfig } from '../support/config.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';

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

  it('opens no context while an audit runs: the used one is closed and replaced after the audit answers', async () => {
    const own = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: false, allowedHosts: [fixtures.hostPort] },
    });
    try {
      await own.start();
      let used: BrowserContext | undefined;
      await own.withPage({ viewport: { width: 1280, height: 800 }, timeoutMs: 30_000 }, async (page) => {
        used = page.context();
        await page.goto(`${fixtures.url}/clean.html`);
        // Long enough for a refill started with the audit to have opened its context.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        assert.deepEqual(used.browser()!.contexts(), [used], "only the audit's own context is open");
      });
      const browser = used!.browser()!;
      for (let tries = 0; tries < 200 && !replaced(browser.contexts(), used!); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.ok(replaced(browser.contexts(), used!), 'the used context is closed and one warm context waits');
    } finally {
      await own.close();
    }
  });
});

const replaced = (contexts: readonly BrowserContext[], used: BrowserContext) =>
  contexts.length === 1 && contexts[0] !== used;
