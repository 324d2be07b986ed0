import assert from 'node:assert/strict';
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
});
