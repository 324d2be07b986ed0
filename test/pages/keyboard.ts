import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { testConfig } from '../support/config.ts';
import { AXE_SOURCE } from '../../activities/audits/axe-check.ts';

/** What has focus, and whether it shows a focus indicator (an outline or a ring). */
async function focused(page: Page): Promise<{ matches: boolean; visible: boolean; name: string }> {
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { matches: false, visible: true, name: 'body' };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return {
      matches: el.matches(window.__wanted),
      visible: outline || style.boxShadow !== 'none',
      name: el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.textContent ? ' ' + el.textContent.trim().slice(0, 30) : ''),
    };
  })()`);
}

/**
 * Presses Tab until the element `selector` names has focus, as a keyboard user moves through the
 * page (no mouse, no scripted focus). Every element focus passes on the way must show it.
 */
export async function tabTo(page: Page, selector: string, maxPresses = 80): Promise<void> {
  await page.evaluate(`window.__wanted = ${JSON.stringify(selector)}`);
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    assert.ok(now.visible, `${now.name} has focus without a visible focus indicator`);
    if (now.matches) return;
  }
  assert.fail(`${selector} was not reached with ${maxPresses} Tab presses`);
}

/** Plain axe-core (all its rules, best practices included) on the page as it stands, injected as the audit injects it. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate<string[]>(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', ')))`,
  );
}

/** Debian's Chromium, headless, for the keyboard-only flows. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: testConfig().audits.chromiumPath,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
}

/**
 * A fresh browser profile with reduced motion, seen by the test API (TRUST_PROXY=1) as coming from
 * `address`, so its anonymous requests have a rate-limit budget of their own.
 */
export function keyboardContext(browser: Browser, address: string): Promise<BrowserContext> {
  return browser.newContext({
    extraHTTPHeaders: { 'X-Forwarded-For': address },
    viewport: { width: 1024, height: 768 },
    reducedMotion: 'reduce',
  });
}

/** The site as the browser must open it: Chromium keeps the Secure cookies of plain-http localhost only. */
export const siteOf = (apiUrl: string) => apiUrl.replace('127.0.0.1', 'localhost');
