import assert from 'node:assert/strict';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { testConfig } from '../support/config.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from './harness.ts';
import { instantClient, type InstantClient } from './instant-client.ts';
import { eventually } from './polling.ts';
import { startInternalHost, type InternalHost } from './internal-host.ts';

const EVERY_KIND = [
  '/image.png',
  '/script.js',
  '/frame.html',
  '/fetch',
  '/socket',
  '/popup.html',
  '/via-redirect',
];

describe('audit egress proxy: every connection of an audited page is checked', function () {
  this.timeout(60_000);
  let fixtures: FixtureServer;
  let internal: InternalHost;

  beforeEach(async () => {
    fixtures = await startFixtureServer();
    internal = await startInternalHost();
  });
  afterEach(async () => {
    await internal.stop();
    await fixtures.stop();
  });

  /** Opens the page that requests the internal host every way it can, and waits until it has tried. */
  async function openExfiltratingPage(allowedHosts: string[]): Promise<void> {
    const pool = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: false, allowedHosts },
    });
    try {
      await pool.withPage({ viewport: { width: 1280, height: 800 }, timeoutMs: 30_000 }, async (page) => {
        await page.goto(`${fixtures.url}/exfiltrate.html?target=${encodeURIComponent(internal.url)}`);
        await page.waitForFunction("document.title === 'attempted'", undefined, { timeout: 20_000 });
        const popup = page.context().pages()[1];
        assert.ok(popup, 'the page opened its popup');
        await popup.waitForLoadState('load');
      });
    } finally {
      await pool.close();
    }
  }

  it('images, scripts, frames, fetch, websockets, popups and redirects to a private address never reach it', async () => {
    await openExfiltratingPage([fixtures.hostPort]);
    assert.deepEqual(internal.paths, []);
    assert.equal(internal.connections(), 0, 'not even a connection (loopback goes through the proxy too)');
  });

  it('the same page reaches the host once it is allowed, so every kind of request was really made', async () => {
    await openExfiltratingPage([fixtures.hostPort, internal.hostPort]);
    assert.ok(
      await eventually(() => EVERY_KIND.every((path) => internal.paths.includes(path))),
      `expected ${EVERY_KIND.join(', ')}; got ${internal.paths.join(', ')}`,
    );
  });
});

describe('POST /api/audits/instant of a page that redirects to an internal address', function () {
  this.timeout(60_000);
  let harness: AuditHarness;
  let client: InstantClient;
  let internal: InternalHost;

  before(async () => {
    harness = await acquireAuditHarness();
    client = await instantClient(harness);
    internal = await startInternalHost();
  });
  after(async () => {
    await internal.stop();
    await releaseAuditHarness();
  });

  const redirectTo = (target: string) => `${harness.fixtures.url}/redirect?to=${encodeURIComponent(target)}`;

  it('a redirect to the cloud metadata address 169.254.169.254 answers 422 naming url', async () => {
    const response = await client.request({ url: redirectTo('http://169.254.169.254/latest/meta-data/') });
    assert.equal(response.status, 422, response.text);
    assert.match(response.body.error ?? '', /^url: .*not publicly accessible/);
  });

  it('a redirect to a private host answers 422, and that host never sees a request', async () => {
    const response = await client.request({ url: redirectTo(`${internal.url}/admin`) });
    assert.equal(response.status, 422, response.text);
    assert.match(response.body.error ?? '', /^url: .*not publicly accessible/);
    assert.equal(internal.connections(), 0);
  });

  it('an https redirect to a private host (a CONNECT tunnel) answers 422 as well', async () => {
    const response = await client.request({ url: redirectTo(`https://${internal.hostPort}/admin`) });
    assert.equal(response.status, 422, response.text);
    assert.match(response.body.error ?? '', /^url: .*not publicly accessible/);
    assert.equal(internal.connections(), 0);
  });
});
