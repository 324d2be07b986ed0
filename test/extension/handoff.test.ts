import assert from 'node:assert/strict';
import { tabTo } from '../pages/keyboard.ts';
import { startSession } from '../sessions/fixtures.ts';
import { clicked, eventRows, popupShows, waitForEvents } from './support/session.ts';
import { openedTab, startFromItsPage, storedSettings } from './support/start-page.ts';
import { extensionSuite, type ExtensionSuite } from './support/suite.ts';

// A session started without copying (issue 32, point 4): the session start page hands the session to
// the built extension, which trusts only the service origin it was built for (here the test's API,
// through the recording proxy), asks for the prototype's site only, and records there only.

/** The documents open in the extension's side panel, as the browser lists them. */
const sidePanels = (suite: ExtensionSuite) =>
  suite.browser.worker.evaluate(async () => {
    type Context = { documentUrl: string };
    const { runtime } = (
      globalThis as unknown as { chrome: { runtime: { getContexts(filter: object): Promise<Context[]> } } }
    ).chrome;
    const contexts = await runtime.getContexts({ contextTypes: ['SIDE_PANEL'] });
    return contexts.map((context) => new URL(context.documentUrl).pathname.slice(1));
  });

describe('Browser extension: a session handed over by its start page', function () {
  this.timeout(120_000);

  describe('when the tester gave the extension the prototype site before', () => {
    const suite = extensionSuite();

    it('accepting the offer was the one action: the session starts, the prototype and the tasks open, only the prototype is recorded', async () => {
      const { sessionId, page } = await startFromItsPage(suite, { afterAccept: true });
      await page
        .locator('#recorder-status', { hasText: 'opened the prototype' })
        .waitFor()
        .catch(async () => assert.fail(`the page says: ${await page.textContent('#recorder-status')}`));
      const prototype = await openedTab(suite.browser.context, (url) => url.startsWith(suite.site.url));
      await prototype.waitForLoadState();
      await openedTab(suite.browser.context, (url) => url.endsWith('/tasks.html')); // the tasks beside it

      const popup = await suite.browser.openPopup();
      await popupShows(popup, '#phase', 'recording');
      await popupShows(popup, '#site', `${suite.site.url}: allowed`);
      const settings = await storedSettings(suite);
      assert.equal(settings.apiBase, suite.proxy.url, 'the API is the service the page came from');
      assert.equal(settings.sessionId, sessionId);
      assert.ok(
        (await page.content()).includes(settings.testToken),
        'the token the page handed over, never typed',
      );

      await page.click('h1'); // the service's own page is not recorded
      await prototype.click('#email');
      await prototype.keyboard.type('ab');
      const rows = await waitForEvents(sessionId, clicked('#email'));
      assert.ok(
        rows.every((row) => row.event_type !== 'navigation' || row.target_selector.startsWith('/shop/')),
        `only the prototype's pages: ${rows.map((row) => row.target_selector).join(', ')}`,
      );
      assert.ok(!rows.some((row) => row.target_selector === 'h1'), 'nothing of the start page');

      // The same page's button pressed again takes a fresh token: the recorder goes on with it.
      await tabTo(page, '#start-session');
      await page.keyboard.press('Enter');
      await page.locator('#recorder-status', { hasText: 'already records this session' }).waitFor();
      const fresh = await page.getAttribute('#recorder-handoff', 'data-test-token');
      assert.equal((await storedSettings(suite)).testToken, fresh);
      await prototype.click('#password');
      await waitForEvents(sessionId, clicked('#password'));
      await popupShows(popup, '#phase', 'recording');
      assert.equal(
        suite.browser.context.pages().filter((open) => open.url().startsWith(suite.site.url)).length,
        1,
      );

      // Another session's page cannot take the recorder over while this one records (its unsent items would go).
      const other = await startFromItsPage(suite);
      await other.page.locator('#recorder-status', { hasText: 'still recording another session' }).waitFor();
      await popupShows(popup, '#phase', 'recording');
      assert.equal((await storedSettings(suite)).sessionId, sessionId);
    });

    it('takes no session from a page of another origin, even one shaped like a start page', async () => {
      const { sessionId, testerToken } = await startSession(
        suite.api,
        suite.study.business,
        suite.study.jobId,
      );
      await suite.browser.context.addCookies([{ name: 'session', value: testerToken, url: suite.proxy.url }]);
      const forged = await suite.browser.context.newPage();
      const address = `${suite.site.url}/sessions/${sessionId}/start`;
      await forged.route(address, (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html lang="en"><title>Start</title><main><h1>Start</h1>
            <div id="recorder-handoff" hidden data-session-id="${sessionId}" data-test-token="${'a'.repeat(48)}"></div>
            <p id="recorder-status" role="status">waiting</p></main></html>`,
        }),
      );
      await forged.goto(address);
      // The genuine start page, loaded after it, is marked: the recorder's scripts have run by then.
      const genuine = await suite.browser.context.newPage();
      await genuine.goto(`${suite.proxy.url}/sessions/${sessionId}/start`);
      await genuine.locator('html[data-recorder="installed"]').waitFor({ state: 'attached' });
      assert.equal(
        await forged.getAttribute('html', 'data-recorder'),
        null,
        'the recorder does not run there',
      );
      assert.equal(await forged.textContent('#recorder-status'), 'waiting');
      const popup = await suite.browser.openPopup();
      await popupShows(popup, '#phase', 'not started');
    });
  });

  describe('when the browser has not given it the prototype site yet', () => {
    const suite = extensionSuite(undefined, { siteAccess: false });

    it('asks for the site in a tab of its own, records nothing there before, and opens the prototype once allowed', async () => {
      const { sessionId, page } = await startFromItsPage(suite);
      await page.locator('#recorder-status', { hasText: 'let it see' }).waitFor();
      const access = await openedTab(suite.browser.context, (url) => url.endsWith('/access.html'));
      await access.locator('#origin', { hasText: suite.site.url }).waitFor();

      // Before the tester allows it, a tab of the prototype is not captured.
      const early = await suite.browser.context.newPage();
      await early.goto(`${suite.site.url}/shop/one`);
      await early.click('#email');
      await early.close();
      const popup = await suite.browser.openPopup();
      await popupShows(popup, '#phase', 'recording');
      await popupShows(popup, '#site', `${suite.site.url}: not allowed yet, nothing of it is recorded`);
      assert.equal(await popup.locator('#site-access').isVisible(), true, 'the popup offers to allow it too');

      // The tester presses Allow (focused when the tab opens); the browser's dialog is answered as the
      // tester would in the browser's settings for the extension, which a test can reach.
      await suite.browser.allowSiteInSettings(suite.site.url);
      await access.bringToFront();
      assert.equal(await access.evaluate(() => document.activeElement?.id), 'allow');
      await access.keyboard.press('Enter');
      await access.waitForURL(`${suite.site.url}/shop/one`);
      await access.click('#pay').catch(() => {}); // the page's script fails on purpose
      const rows = await waitForEvents(sessionId, clicked('#pay'));
      assert.equal(
        rows.filter((row) => row.event_type === 'click' && row.target_selector === '#email').length,
        0,
        'nothing was captured before the site was given',
      );
      assert.deepEqual(await sidePanels(suite), ['tasks.html']);
      assert.ok((await eventRows(sessionId)).length > 0);
    });
  });
});
