import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from '../audits/harness.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { axeViolations, keyboardContext, launchChromium, siteOf, tabTo } from './keyboard.ts';
import { PageClient, textOfId } from './page-client.ts';
import { signInByKeyboard, withPassword } from './sign-in-as.ts';

const PATH = '/dashboard/audits';

describe('the audits page (/dashboard/audits): an instant audit from a form, its result, the score over time', function () {
  this.timeout(120_000);
  let harness: AuditHarness;
  let browser: Browser;
  const fixture = (name: string) => `${harness.fixtures.url}/${name}`;

  before(async () => {
    harness = await acquireAuditHarness();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await releaseAuditHarness();
  });

  it('keyboard only: audits a page, shows its issues, audits it again and charts both scores', async () => {
    const business = await createBusiness('pro');
    const email = await withPassword(business.userId, 'keyboard-audits');
    const context = await keyboardContext(browser, '10.77.0.21');
    const page = await context.newPage();
    await page.goto(siteOf(harness.api.url) + PATH);
    await signInByKeyboard(page, email, 'keyboard-audits', PATH);
    assert.equal(await page.locator('h1').textContent(), 'Accessibility audits');
    assert.match(await page.locator('main').innerText(), /No audits yet\./);

    const audit = async () => {
      await tabTo(page, '#field-url');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(fixture('low-contrast.html'));
      await tabTo(page, `form[action="${PATH}"] button[type="submit"]`);
      // A new result each time: the address names the new audit (the last one matched the pattern too).
      const before = page.url();
      await Promise.all([
        page.waitForURL((url) => url.href !== before && url.searchParams.has('audit')),
        page.keyboard.press('Enter'),
      ]);
    };
    await audit();
    assert.match(
      (await page.locator('#result-title').textContent()) ?? '',
      /^Result: \d+ of 100, grade [A-F]$/,
    );
    const issues = await page.locator('#result-title ~ table tbody tr').allInnerTexts();
    assert.ok(
      issues.some((row) => /serious\s+1\.4\.3/.test(row)),
      `a low-contrast issue under 1.4.3 is listed: ${issues.join(' | ')}`,
    );
    assert.deepEqual(await axeViolations(page), []);

    await audit();
    // Two audits of the page: two bars, and the table of the same figures, oldest first.
    const history = await page.locator('#score-history-caption ~ table tbody tr').allInnerTexts();
    assert.equal(history.length, 2, history.join(' | '));
    assert.ok(
      history.every((row) => /\(instant\)\s+\d+ \(grade [A-F]\)/.test(row)),
      history.join(' | '),
    );
    assert.equal(await page.locator('svg[role="img"] rect.chart-bar').count(), 2);
    const described = (await page.locator('#score-history-desc').textContent()) ?? '';
    assert.match(described, /last 2 audits of the page, oldest first/);

    // The recent audits link to the URL's own view: its chart, without a result.
    await tabTo(page, `th[scope="row"] a[href^="${PATH}?url="]`);
    await Promise.all([page.waitForURL(`**${PATH}?url=*`), page.keyboard.press('Enter')]);
    assert.equal(await page.locator('#result-title').count(), 0);
    assert.equal(await page.locator('svg[role="img"] rect.chart-bar').count(), 2);
    assert.deepEqual(await axeViolations(page), []);
    await context.close();
  });

  it('refuses a blank or private address next to the field, keeping what was typed; another organization gets 404', async () => {
    const business = await createBusiness('pro');
    const client = new PageClient(harness.api.url);
    client.useSession(await sessionToken(business.claims));
    await client.get(PATH);
    const blank = await client.post(PATH, { url: '' });
    assert.equal(blank.status, 422);
    assert.match(textOfId(blank.html, 'field-url-error'), /Required/);
    const wrong = await client.post(PATH, { url: 'not an address' });
    assert.equal(wrong.status, 422);
    assert.match(textOfId(wrong.html, 'field-url-error'), /Must be an http or https URL/);
    assert.ok(wrong.html.includes('value="not an address"'));
    const internal = await client.post(PATH, { url: 'http://10.1.2.3/admin' });
    assert.equal(internal.status, 422);
    assert.match(textOfId(internal.html, 'field-url-error'), /publicly accessible/);

    const done = await client.post(PATH, { url: fixture('clean.html') });
    assert.equal(done.status, 303, done.html);
    const shown = done.location!;
    assert.match(shown, /^\/dashboard\/audits\?audit=[0-9a-f-]{36}$/);
    assert.equal((await client.get(shown)).status, 200);
    const other = new PageClient(harness.api.url);
    other.useSession(await sessionToken((await createBusiness()).claims));
    await other.get(PATH);
    assert.equal((await other.get(shown)).status, 404);
    assert.ok(
      !(await other.get(PATH)).html.includes('clean.html'),
      "another organization's audits are not listed",
    );
  });
});
