import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { waitFor } from '../sessions/fixtures.ts';
import type { ProxiedRequest } from './support/api-proxy.ts';
import {
  clicked,
  issueTestToken,
  popupShows,
  startInPopup,
  summary,
  waitForEvents,
} from './support/session.ts';
import { extensionSuite } from './support/suite.ts';

const BACK = 'html > body > main > div:nth-of-type(1) > button:nth-of-type(1)';
const SAVE = 'html > body > main > div:nth-of-type(1) > button:nth-of-type(2)';

/** The clicks a request carried, by selector. */
const clicksIn = (request: ProxiedRequest) =>
  (JSON.parse(request.body) as { batch: { eventType: string; targetSelector: string }[] }).batch
    .filter((item) => item.eventType === 'click')
    .map((item) => item.targetSelector);

describe('Browser extension: sending batches', function () {
  this.timeout(90_000);
  const suite = extensionSuite();

  it('an expired test token (401) stops sending and the popup says why; a new token sends what was kept', async () => {
    const { api, proxy, study } = suite;
    const { session, popup, page } = await suite.startRecording();
    await page.click('#email');
    await waitForEvents(session.sessionId, clicked('#email'));

    await asSystem(testDatabase(), (tx) =>
      sql`update sessions set test_token_expires_at = now() - interval '1 second'
          where id = ${session.sessionId}`.execute(tx),
    );
    await page.click(BACK);
    await popupShows(popup, '#phase', /^stopped$/);
    await popupShows(popup, '#message', /test token was refused.*HTTP 401/);
    const refusedAt = proxy.requests.length;
    assert.equal(proxy.requests.at(-1)?.outcome, 401);
    assert.deepEqual(clicksIn(proxy.requests.at(-1)!), [BACK]);

    // Stopped: nothing is captured or sent until the tester starts again.
    await page.click(SAVE);
    const token = await issueTestToken(api, study.business, session.sessionId);
    await startInPopup(popup, proxy.url, { ...session, testToken: token });
    await page.reload(); // the page's script reads the new state as it loads: no race with the popup
    await page.click('#pay');
    const rows = await waitForEvents(session.sessionId, clicked('#pay'));

    const clicks = rows.filter((row) => row.event_type === 'click').map((row) => row.target_selector);
    assert.deepEqual(
      clicks,
      ['#email', BACK, '#pay'],
      'the refused batch was kept and sent; nothing while stopped',
    );
    assert.deepEqual(
      rows.filter((row) => row.target_selector === SAVE && row.event_type !== 'blur').map(summary),
      [],
      'Save was clicked and focused while stopped: not captured',
    );
    assert.equal(
      proxy.requests[refusedAt]?.method,
      'PATCH',
      'after the 401 the next request was the restart',
    );
    assert.equal(await popup.textContent('#message'), '', 'the refusal is no longer shown');
  });

  it('a server that stops answering for a moment gets every batch once, in order', async () => {
    const { proxy } = suite;
    const { session, popup, page } = await suite.startRecording();
    const first = proxy.requests.length;
    const eventRequests = () =>
      proxy.requests
        .slice(first)
        .filter((request) => request.method === 'POST' && request.path.endsWith('/events'));

    // The first batch is stored but its answer is lost; the retry finds the API down; then it answers.
    proxy.failEvents('lose-answer', 'refuse');
    await page.click('#email');
    await page.click(BACK);
    await waitFor(async () => Promise.resolve(eventRequests().length >= 2));
    await popupShows(popup, '#message', /did not answer.*Trying again/);
    // Captured during the outage: a later batch, which must wait for the first.
    await page.click(SAVE);
    await page.click('#pay');

    const rows = await waitForEvents(session.sessionId, clicked('#pay'));
    const clicks = rows.filter((row) => row.event_type === 'click').map((row) => row.target_selector);
    assert.deepEqual(clicks, ['#email', BACK, SAVE, '#pay'], 'each click stored once, in order');

    const sent = eventRequests();
    const firstBatch = sent[0]!.body;
    const attempts = sent.filter((request) => request.body === firstBatch);
    assert.deepEqual(
      attempts.map((request) => request.outcome),
      ['lose-answer', 'refuse', 200],
      'the same batch, sent again unchanged until it was answered',
    );
    const lastAttempt = sent.indexOf(attempts.at(-1)!);
    const later = sent.findIndex((request) => clicksIn(request).includes(SAVE));
    assert.ok(later > lastAttempt, 'the later batch was sent only after the first was answered');
    await popupShows(popup, '#unsent', /^0$/);
  });
});
