import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { asSystem } from '../../db/doors.ts';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { analyzedSession, businessWithStudy, readNotes, type TesterSession } from '../sessions/fixtures.ts';
import { axeViolations, keyboardContext, launchChromium, siteOf, tabTo } from './keyboard.ts';
import { signInByKeyboard, withPassword } from './sign-in-as.ts';

const PASSWORD = 'keyboard-only-tester';

describe('the review flow, keyboard only, in Chromium', function () {
  this.timeout(180_000);
  let api: TestApi;
  let browser: Browser;
  let session: TesterSession;
  let email: string;

  before(async () => {
    api = await startTestApi({ env: { TRUST_PROXY: '1' } });
    const { business, jobId } = await businessWithStudy(api);
    session = await analyzedSession(api, business, jobId);
    email = await withPassword(session.tester.sub, PASSWORD);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  it('from the emailed link: sign in, decide each finding, fix a missing rating, send, see what was sent', async () => {
    const context = await keyboardContext(browser, '10.77.0.1');
    const page = await context.newPage();
    const review = `/sessions/${session.sessionId}/review`;
    const notes = (await readNotes(api, session.sessionId, session.testerToken)).filter(
      (n) => n.authorKind === 'agent',
    );
    const [first, second] = notes;

    // The confirmation request's link, opened signed out: the sign-in page, then back to the review.
    const site = siteOf(api.url);
    await page.goto(site + review);
    assert.equal(new URL(page.url()).pathname, '/login');
    await signInByKeyboard(page, email, PASSWORD, review);
    assert.equal(await page.locator('h1').textContent(), "Review your session's findings");

    // First finding: reject it (arrow keys move within the radio group) and say why.
    await tabTo(page, `#field-decision-${first!.noteId}-confirmed`);
    await page.keyboard.press('ArrowRight');
    assert.ok(await page.locator(`#field-decision-${first!.noteId}-rejected`).isChecked());
    await tabTo(page, `#field-annotation-${first!.noteId}`);
    await page.keyboard.type('I clicked several times on purpose');
    // Second finding: keep it confirmed, with a note.
    await tabTo(page, `#field-annotation-${second!.noteId}`);
    await page.keyboard.type('The card error was unclear');

    // Send without a rating: the form comes back with the problem, the values kept.
    await tabTo(page, 'button[type="submit"]:not(.link-button)');
    await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
    await page.waitForSelector('.error-summary');
    assert.match((await page.locator('#field-rating-error').textContent())!, /Required/);
    assert.ok(await page.locator(`#field-decision-${first!.noteId}-rejected`).isChecked());
    assert.equal(
      await page.locator(`#field-annotation-${first!.noteId}`).inputValue(),
      'I clicked several times on purpose',
    );
    assert.deepEqual(await axeViolations(page), [], 'the form with its errors has no axe violation');

    // The error summary's link takes focus to the rating; pick 4 with the arrow keys.
    await tabTo(page, '.error-summary a[href="#field-rating"]');
    await page.keyboard.press('Enter');
    assert.equal(
      await page.evaluate('document.activeElement.id'),
      'field-rating',
      'the link took focus to the rating',
    );
    await tabTo(page, '#field-rating-1');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    assert.ok(await page.locator('#field-rating-4').isChecked());
    await tabTo(page, '#field-comment');
    await page.keyboard.type('Clear tasks, thank you');
    await tabTo(page, 'button[type="submit"]:not(.link-button)');
    await Promise.all([page.waitForURL(`**${review}?sent=1`), page.keyboard.press('Enter')]);

    assert.match((await page.locator('.notice').textContent())!, /your review was sent/);
    assert.equal(await page.locator('form[action$="/review"]').count(), 0, 'no second submit');
    assert.deepEqual(await axeViolations(page), [], 'the sent review has no axe violation');
    const stored = await asSystem(testDatabase(), async (tx) => ({
      session: await tx
        .selectFrom('sessions')
        .select(['status', 'rating', 'rating_comment'])
        .where('id', '=', session.sessionId)
        .executeTakeFirstOrThrow(),
      first: await tx
        .selectFrom('session_notes')
        .select(['decision', 'annotation'])
        .where('id', '=', first!.noteId)
        .executeTakeFirstOrThrow(),
    }));
    assert.deepEqual(stored.session, {
      status: 'confirmed',
      rating: 4,
      rating_comment: 'Clear tasks, thank you',
    });
    assert.deepEqual(stored.first, {
      decision: 'rejected',
      annotation: 'I clicked several times on purpose',
    });
    await context.close();
  });
});
