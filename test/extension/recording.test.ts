import assert from 'node:assert/strict';
import { clicked, eventRows, popupShows, summary, waitForEvents, type EventRow } from './support/session.ts';
import { extensionSuite } from './support/suite.ts';

// What the tester types; none of it may leave the browser.
const EMAIL = 'jane.secret@example.com';
const NOTES = 'private notes';
const PASSWORD = 'hunter2';
const NEVER_SENT = ['secret', 'private', 'hunter2', 'declined'];
/** The "Save" button: no id, inside a div of buttons; the click lands on its inner span. */
const SAVE_BUTTON = 'html > body > main > div:nth-of-type(1) > button:nth-of-type(2)';

describe('Browser extension: recording a session', function () {
  this.timeout(90_000);
  const suite = extensionSuite();

  it("streams clicks, typing, scrolling, focus, blur, navigation and errors as the spec's event items, lengths only", async () => {
    const { proxy, site, browser } = suite;
    const { session, popup, page } = await suite.startRecording();
    page.on('pageerror', () => {}); // the Pay button fails on purpose
    await page.click('#email');
    await page.keyboard.type(EMAIL);
    await page.click('textarea[name="notes"]');
    await page.keyboard.type(NOTES);
    await page.click('#password');
    await page.keyboard.type(PASSWORD);
    await page.click('#place-order'); // #postcode is required and empty: the browser refuses it
    await page.click('.actions .icon');
    await page.click('#pay');
    await page.click('#next-step');
    await page.mouse.move(300, 300);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction('scrollY === 600');
    // The scroll item is in before the page is left (its timer would die with the page).
    await waitForEvents(session.sessionId, (rows) => rows.some((row) => row.scroll_y === 600));
    await page.click('#to-two');
    await page.waitForURL(/\/shop\/two/);
    await page.click('#done');

    const rows = await waitForEvents(session.sessionId, clicked('#done'));
    const of = (type: string, selector: string) =>
      rows.filter((row) => row.event_type === type && row.target_selector === selector);

    // Clicks: the element meant (the button around the span), with its position on the page.
    for (const selector of [
      '#email',
      'textarea[name="notes"]',
      '#password',
      '#place-order',
      SAVE_BUTTON,
      '#pay',
    ])
      assert.equal(of('click', selector).length, 1, `one click on ${selector}`);
    const save = of('click', SAVE_BUTTON)[0]!;
    assert.ok(save.x! > 0 && save.y! > 0, 'a pointer click carries x and y');

    // Typing: one item per keystroke with the field's length, never its content; none for passwords.
    assert.deepEqual(
      of('input', '#email').map((row) => row.input_length),
      Array.from({ length: EMAIL.length }, (_, i) => i + 1),
    );
    assert.deepEqual(
      of('input', 'textarea[name="notes"]').map((row) => row.input_length),
      Array.from({ length: NOTES.length }, (_, i) => i + 1),
    );
    const password = of('input', '#password');
    assert.equal(password.length, PASSWORD.length);
    assert.ok(
      password.every((row) => row.input_length === null),
      'a password field sends no length',
    );

    // Focus and blur of each field, in that order.
    for (const field of ['#email', '#password']) {
      const focus = of('focus', field)[0]!;
      const blur = of('blur', field)[0]!;
      assert.ok(Number(focus.id) < Number(blur.id), `${field} focused before it was left`);
    }

    // Errors: the refused required field, the failing script, the missing image.
    assert.equal(of('error', '#postcode').length, 1, 'the browser refused #postcode');
    assert.equal(of('error', 'window').length, 1, "the Pay button's script error");
    assert.equal(of('error', '#logo').length, 1, 'the image that did not load');

    // Navigation: each page reached, by path (and route fragment), the query never.
    assert.deepEqual(
      rows.filter((row) => row.event_type === 'navigation').map((row) => row.target_selector),
      ['/shop/one', '/shop/step-2', '/shop/two#/receipt'],
    );
    // Scrolling: where the page was scrolled to (the link's click scrolled it back to the top).
    assert.ok(
      of('scroll', 'window').some((row) => row.scroll_y === 600),
      'the wheel scroll to 600',
    );

    // Every item has the spec's fields: a timestamp in capture order and the viewport.
    for (const row of rows) {
      assert.deepEqual([row.viewport_width, row.viewport_height], [1024, 700], summary(row));
    }
    const times = rows.map((row) => new Date(row.occurred_at).getTime());
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'stored in the order captured',
    );

    // Nothing typed, no page text, no query and no error message left the browser.
    const requests = proxy.requests.filter((request) => request.path.includes(session.sessionId));
    const sent = requests.map((request) => request.body).join('\n') + JSON.stringify(rows);
    for (const text of NEVER_SENT) assert.ok(!sent.includes(text), `"${text}" was sent`);
    for (const request of requests) {
      assert.equal(request.origin, `chrome-extension://${browser.extensionId}`);
      assert.notEqual(request.outcome, 403, "the API takes the extension's origin");
    }

    // The selector finds exactly the element clicked, on a fresh visit of the page.
    const again = await browser.context.newPage();
    await again.goto(`${site.url}/shop/one`);
    const found = await again.evaluate(
      `[...document.querySelectorAll(${JSON.stringify(SAVE_BUTTON)})].map((element) => element.textContent.trim())`,
    );
    assert.deepEqual(found, ['* Save']);

    // The popup counts what the API accepted.
    await popupShows(popup, '#total-counts', new RegExp(`^accepted ${rows.length}, rejected 0$`));
  });

  it('records nothing while paused, records again after Resume, and Complete sends what is left first', async () => {
    const { api, study } = suite;
    const { session, popup, page } = await suite.startRecording();
    await page.click('#email');
    await waitForEvents(session.sessionId, clicked('#email'));

    await popup.click('#pause');
    await popupShows(popup, '#session-status', /^paused$/);
    const pausedAt = Date.now();
    const read = await api.request('GET', `/api/sessions/${session.sessionId}`, { token: study.business });
    assert.equal((read.body.data as { status: string }).status, 'paused');
    await page.click('#password');
    await page.keyboard.type(PASSWORD);
    await page.click('#next-step');
    const resumedAt = Date.now();
    await popup.click('#resume');
    await popupShows(popup, '#phase', /^recording$/);
    await page.click('#email');
    await waitForEvents(session.sessionId, (rows) => rows.filter(clickOn('#email')).length === 2);

    // Complete right after a click: the click is sent before the session completes.
    await page.click('.actions .icon');
    await popup.click('#complete');
    await popupShows(popup, '#phase', /^completed$/);

    const rows = await eventRows(session.sessionId);
    assert.ok(clicked(SAVE_BUTTON)(rows), 'the click just before Complete was sent');
    const whilePaused = rows.filter((row) => {
      const at = new Date(row.occurred_at).getTime();
      return at > pausedAt && at < resumedAt;
    });
    assert.deepEqual(whilePaused.map(summary), [], 'nothing captured while paused');
    assert.ok(!rows.some((row) => row.target_selector === '#password'), 'no item of the paused typing');
    assert.ok(!rows.some((row) => row.target_selector === '/shop/step-2'), 'no navigation while paused');
    const after = await api.request('GET', `/api/sessions/${session.sessionId}`, { token: study.business });
    assert.notEqual((after.body.data as { status: string }).status, 'active');
    assert.notEqual((after.body.data as { status: string }).status, 'paused');
  });
});

const clickOn = (selector: string) => (row: EventRow) =>
  row.event_type === 'click' && row.target_selector === selector;
