import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { tabTo } from '../../pages/keyboard.ts';
import { startSession, waitFor } from '../../sessions/fixtures.ts';
import type { ExtensionSuite } from './suite.ts';

// A session started from its start page on the service (issue 32, point 4), as the tester does it.

/** A tab the extension opens, once its address matches. */
export async function openedTab(context: BrowserContext, url: (address: string) => boolean): Promise<Page> {
  let found: Page | undefined;
  await waitFor(() =>
    Promise.resolve((found = context.pages().find((page) => url(page.url()))) !== undefined),
  ).catch(() =>
    assert.fail(
      `no tab opened; open: ${context
        .pages()
        .map((page) => page.url())
        .join(', ')}`,
    ),
  );
  return found!;
}

/** The session as the extension keeps it (`chrome.storage.local`, `settings`). */
export async function storedSettings(suite: ExtensionSuite) {
  const stored = await suite.browser.worker.evaluate(() =>
    (
      globalThis as unknown as {
        chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
      }
    ).chrome.storage.local.get('settings'),
  );
  return stored.settings as { apiBase: string; sessionId: string; testToken: string };
}

/**
 * The tester, signed in on the service, opens the session's start page and presses its button with
 * the keyboard; or (`afterAccept`) arrives there as accepting an offer leads (`?start=1`), where the
 * recorder presses it itself.
 */
export async function startFromItsPage(
  suite: ExtensionSuite,
  { afterAccept = false } = {},
): Promise<{ sessionId: string; page: Page }> {
  const { sessionId, testerToken } = await startSession(suite.api, suite.study.business, suite.study.jobId);
  const { context } = suite.browser;
  await context.addCookies([{ name: 'session', value: testerToken, url: suite.proxy.url }]);
  const page = await context.newPage();
  await page.goto(`${suite.proxy.url}/sessions/${sessionId}/start${afterAccept ? '?start=1' : ''}`);
  if (!afterAccept) {
    // The recorder's content script marks the page: its install help is hidden.
    await page.locator('html[data-recorder="installed"]').waitFor({ state: 'attached' });
    assert.equal(
      await page.locator('#install-title').isVisible(),
      false,
      'no install help with the recorder',
    );
    await tabTo(page, '#start-session');
    await page.keyboard.press('Enter');
  }
  await page
    .locator('#recorder-handoff')
    .waitFor({ state: 'attached', timeout: 10_000 })
    .catch(async () => assert.fail(`the start page did not hand over: ${await page.content()}`));
  return { sessionId, page };
}
