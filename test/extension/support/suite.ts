import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { asSystem } from '../../../db/doors.ts';
import { testDatabase } from '../../support/database.ts';
import { startTestApi, type TestApi } from '../../support/api.ts';
import { businessWithStudy } from '../../sessions/fixtures.ts';
import { startApiProxy, type ApiProxy } from './api-proxy.ts';
import { launchExtensionBrowser, type ExtensionBrowser, type FakeCamera } from './browser.ts';
import { startFixtureSite, type FixtureSite } from './fixture-site.ts';
import { recordableSession, startInPopup, type RecordableSession } from './session.ts';

/** What a test of the extension drives; each part is ready once the suite's hooks have run. */
export interface ExtensionSuite {
  readonly api: TestApi;
  /** The API as the extension reaches it, recording every request. */
  readonly proxy: ApiProxy;
  readonly site: FixtureSite;
  /** A fresh browser (so fresh extension storage) for each test. */
  readonly browser: ExtensionBrowser;
  /** A business's token and its active study, which every test's sessions are on. */
  readonly study: { readonly business: string; readonly jobId: string };
  /**
   * A fresh session, started in the popup as the tester starts it (the popup then shows
   * "recording"), and a tab on the fixture site's first page.
   */
  startRecording(): Promise<{ session: RecordableSession; popup: Page; page: Page }>;
}

/**
 * Registers the mocha hooks of a describe block that drives the extension: the API behind the
 * recording proxy (the service the extension is built for), the fixture site and a study whose
 * prototype is the fixture site once for the block, a browser for each test (with Chromium's fake
 * camera when `camera` gives one, and behind `options.proxy` when it names one) in which the tester
 * has given the extension the fixture site, unless `options.siteAccess` is false.
 */
export function extensionSuite(
  camera?: () => Promise<FakeCamera>,
  options: { readonly proxy?: () => string; readonly siteAccess?: boolean } = {},
): ExtensionSuite {
  let api: TestApi | undefined;
  let proxy: ApiProxy | undefined;
  let site: FixtureSite | undefined;
  let study: ExtensionSuite['study'] | undefined;
  let browser: ExtensionBrowser | undefined;

  before(async () => {
    api = await startTestApi();
    proxy = await startApiProxy(api.url);
    site = await startFixtureSite();
    study = await businessWithStudy(api);
    const prototypeUrl = `${site.url}/shop/one`;
    await asSystem(testDatabase(), (tx) =>
      sql`update studies set prototype_url = ${prototypeUrl} where id = ${study!.jobId}`.execute(tx),
    );
  });
  after(async () => {
    await site?.stop();
    await proxy?.stop();
    await api?.stop();
  });
  beforeEach(async () => {
    browser = await launchExtensionBrowser(camera && (await camera()), {
      service: ready(proxy).url,
      proxy: options.proxy?.(),
    });
    if (options.siteAccess !== false) await browser.allowSite(ready(site).url);
  });
  afterEach(() => browser?.close());

  const ready = <T>(part: T | undefined): T => {
    if (part === undefined) throw new Error("the extension suite's hooks have not run");
    return part;
  };
  const suite: ExtensionSuite = {
    get api() {
      return ready(api);
    },
    get proxy() {
      return ready(proxy);
    },
    get site() {
      return ready(site);
    },
    get browser() {
      return ready(browser);
    },
    get study() {
      return ready(study);
    },
    async startRecording() {
      const session = await recordableSession(suite.api, suite.study.business, suite.study.jobId);
      const popup = await suite.browser.openPopup();
      await startInPopup(popup, suite.proxy.url, session);
      const page = await suite.browser.context.newPage();
      await page.goto(`${suite.site.url}/shop/one`);
      return { session, popup, page };
    },
  };
  return suite;
}
