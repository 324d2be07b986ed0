import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startTestApi, type TestApi } from '../support/api.ts';
import { createBusiness } from '../support/factories.ts';
import { axeViolations, keyboardContext, launchChromium, siteOf, tabTo } from './keyboard.ts';
import { signInByKeyboard, withPassword } from './sign-in-as.ts';

const PASSWORD = 'keyboard-only-study-maker';

describe('the create-study form, keyboard only, in Chromium', function () {
  this.timeout(120_000);
  let api: TestApi;
  let browser: Browser;
  let email: string;

  before(async () => {
    api = await startTestApi({ worker: false, env: { TRUST_PROXY: '1' } });
    email = await withPassword((await createBusiness()).claims.sub, PASSWORD);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('Enter in a field sends the form (not "Add another task"); the errors take focus; a filled form makes the draft', async () => {
    const context = await keyboardContext(browser, '10.79.0.1');
    const page = await context.newPage();
    const site = siteOf(api.url);
    await page.goto(`${site}/dashboard`);
    await signInByKeyboard(page, email, PASSWORD, '/dashboard');
    await tabTo(page, 'a[href="/dashboard/jobs/new"]');
    await Promise.all([page.waitForURL('**/dashboard/jobs/new'), page.keyboard.press('Enter')]);

    await tabTo(page, '#field-title');
    await page.keyboard.type('Keyboard-made study');
    const [sent] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST'),
      page.keyboard.press('Enter'),
    ]);
    assert.equal(sent.status(), 422);
    await page.locator('.error-summary').waitFor();
    assert.equal(
      await page.locator('input[name^="task-"][name$="-title"]').count(),
      1,
      'no task row was added',
    );
    assert.equal(
      await page.evaluate('document.activeElement.className'),
      'error-summary',
      'the error summary has focus',
    );
    assert.deepEqual(await axeViolations(page), [], 'the refused form has no axe violation');

    // The summary's link to a field leads there; every required field filled in with the keyboard.
    const typeInto = async (selector: string, text: string) => {
      await tabTo(page, selector, 120);
      await page.keyboard.type(text);
    };
    await tabTo(page, '.error-summary a[href="#field-description"]');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Can the menu be used without a mouse?');
    assert.equal(
      await page.locator('#field-description').inputValue(),
      'Can the menu be used without a mouse?',
    );
    await typeInto('#field-prototypeUrl', 'https://keyboard.example/');
    await typeInto('#field-task-1-title', 'Open the menu');
    await typeInto('#field-task-1-description', 'Use only the keyboard');
    await typeInto('#field-targeting-countries', 'GB');
    await tabTo(page, '#field-targeting-devices-desktop', 120);
    await page.keyboard.press('Space');
    await typeInto('#field-targeting-testerCount', '2');
    await typeInto('#field-compensation-currency', 'GBP');
    await typeInto('#field-compensation-amount', '20');
    await tabTo(page, '.actions button', 120);
    await Promise.all([
      page.waitForURL(/\/dashboard\/jobs\/[0-9a-f-]{36}\?done=created$/),
      page.keyboard.press('Enter'),
    ]);
    assert.match(await page.locator('h1').innerText(), /Keyboard-made study/);
    await context.close();
  });
});
