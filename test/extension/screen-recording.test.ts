import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { popupShows } from './support/session.ts';
import { extensionSuite } from './support/suite.ts';

// The screen recording (issue 32, point 1): the built extension records the prototype's tab with
// rrweb while the session records, masked, and sends it in numbered chunks through the snapshots
// route; nothing from other origins, nothing while paused, nothing the tester typed.

const EMAIL = 'jane.secret@example.com';
const PASSWORD = 'hunter2-secret';
const NOTES = 'my private notes';

interface StoredChunk {
  seq: number;
  has_full_snapshot: boolean;
  started_at: Date;
  ended_at: Date;
  events: { type: number; timestamp: number; data?: { href?: string } }[];
  json: string;
}

const storedChunks = async (sessionId: string): Promise<StoredChunk[]> => {
  const rows = await asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('session_recording_chunks')
      .selectAll()
      .where('session_id', '=', sessionId)
      .orderBy('seq')
      .execute(),
  );
  return rows.map((row) => {
    const json = gunzipSync(row.data).toString('utf8');
    return {
      seq: row.seq,
      has_full_snapshot: row.has_full_snapshot,
      started_at: row.started_at,
      ended_at: row.ended_at,
      events: JSON.parse(json) as StoredChunk['events'],
      json,
    };
  });
};

/** The value `read` answers once it answers one, within 40 s (the recorder sends every 5 s). */
async function eventually<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 40_000; Date.now() < deadline;) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail('not reached within 40 s');
}

/** rrweb's Meta event names the page recorded. */
const hrefsOf = (chunks: StoredChunk[]) =>
  chunks.flatMap((chunk) =>
    chunk.events.filter((event) => event.type === 4).map((event) => event.data?.href),
  );

describe('Browser extension: the screen recording', function () {
  this.timeout(120_000);
  const suite = extensionSuite();
  before(async () => {
    await asSystem(testDatabase(), (tx) =>
      sql`update studies set record_screen = true, prototype_url = ${`${suite.site.url}/shop/one`}
          where id = ${suite.study.jobId}`.execute(tx),
    );
  });

  it("records the prototype's pages in numbered chunks, every typed character masked, and nothing of other origins", async () => {
    const { session, page } = await suite.startRecording();
    // The prototype shows what is typed elsewhere on the page (a live summary).
    await page.evaluate(() => {
      const echo = document.createElement('p');
      echo.id = 'echo';
      document.body.append(echo);
      // The same, in capitals and in attributes (a tooltip, a link's query), which rrweb leaves as they are.
      const shout = document.createElement('h2');
      const link = document.createElement('a');
      link.textContent = 'Edit the receipt';
      document.body.append(shout, link);
      document.querySelector('#email')!.addEventListener('input', (event) => {
        const { value } = event.target as HTMLInputElement;
        echo.textContent = `Receipt to ${value}`;
        shout.textContent = `For ${value.toUpperCase()}`;
        echo.title = value;
        link.href = `/shop/edit?email=${value}`;
      });
    });
    await page.click('#email');
    await page.keyboard.type(EMAIL);
    await page.click('textarea[name="notes"]');
    await page.keyboard.type(NOTES);
    await page.click('#password');
    await page.keyboard.type(PASSWORD);
    // The service's own page, in another tab, is never recorded.
    const service = await suite.browser.context.newPage();
    await service.goto(`${suite.api.url}/login`);
    await service.fill('input[type="email"]', 'not-recorded@example.com');
    await service.close();
    await page.click('#to-two');
    await page.waitForURL(/\/shop\/two/);
    await page.getByRole('button', { name: 'Done' }).waitFor();
    // The next page names the address typed on the first (a confirmation), once it has loaded.
    await page.waitForTimeout(1_000);
    await page.evaluate((email) => {
      const confirmation = document.createElement('p');
      confirmation.textContent = `Receipt sent to ${email}`;
      document.body.append(confirmation);
    }, EMAIL);

    const chunks = await eventually(async () => {
      const stored = await storedChunks(session.sessionId);
      return stored.some((chunk) => chunk.json.includes('Receipt sent to')) ? stored : undefined;
    });
    assert.deepEqual(
      chunks.map((chunk) => chunk.seq),
      chunks.map((_, i) => i),
      'numbered from 0 without gaps',
    );
    assert.ok(chunks[0]!.has_full_snapshot, 'the recording starts with a full snapshot');
    const everything = chunks.map((chunk) => chunk.json).join('\n');
    assert.match(everything, /Place order/, "the prototype's page is in the recording");
    assert.match(everything, /Thank you/, 'and the next page of the prototype');
    assert.match(everything, /Receipt to \*{10}/, 'the echo of the email is recorded, masked');
    assert.match(everything, /Receipt sent to \*{10}/, 'and masked on the next page too');
    // The page's own text may name "jane.secret" (its link does); what the tester typed never leaves.
    assert.match(everything, /For \*{10}/, 'in capitals too');
    const secrets = [EMAIL, EMAIL.toUpperCase(), PASSWORD, 'hunter2', NOTES, 'private notes', 'not-recorded'];
    for (const secret of secrets) assert.ok(!everything.includes(secret), `"${secret}" left the browser`);
    assert.match(everything, /email=\*{10}/, "the link's query is masked, the rest of it kept");
    const origins = new Set(hrefsOf(chunks).map((href) => new URL(href!).origin));
    assert.deepEqual([...origins], [suite.site.url]);
    // Page addresses without their query or fragment (a form sent with GET puts typing there).
    assert.deepEqual(
      hrefsOf(chunks).filter((href) => /[?#]/.test(href!)),
      [],
    );

    // What went over the wire is the same chunks: the snapshots route, with the test token.
    const sent = suite.proxy.requests.filter(
      (request) =>
        request.path === `/api/sessions/${session.sessionId}/snapshots` &&
        request.body.includes('"recording"'),
    );
    assert.ok(sent.length >= 1);
    for (const request of sent) assert.ok(!request.body.includes(EMAIL) && !request.body.includes(PASSWORD));
  });

  it('Complete sends what the page held when it was pressed, then completes the session', async () => {
    const { session, popup, page } = await suite.startRecording();
    await eventually(async () => ((await storedChunks(session.sessionId)).length ? true : undefined));
    // Recorded a moment before Complete: still in the page's buffer (it delivers every 5 s) when pressed.
    await page.evaluate(() => {
      const note = document.createElement('p');
      note.textContent = 'The last words before Complete';
      document.body.append(note);
    });
    await popup.getByRole('button', { name: 'Complete' }).click();
    await popupShows(popup, '#phase', /^completed/, 30_000);
    const chunks = await storedChunks(session.sessionId);
    assert.ok(
      chunks.some((chunk) => chunk.json.includes('The last words before Complete')),
      'the last seconds were sent before the session completed',
    );
    assert.equal(await popup.textContent('#message'), '', 'and nothing was refused after it');
  });

  it('records nothing while the session is paused, and starts again with a full snapshot', async () => {
    const { session, popup, page } = await suite.startRecording();
    await eventually(async () => ((await storedChunks(session.sessionId)).length ? true : undefined));
    await popup.getByRole('button', { name: 'Pause' }).click();
    await popupShows(popup, '#phase', /^paused/);
    const pausedAt = Date.now();
    await page.evaluate(() => {
      const note = document.createElement('p');
      note.textContent = 'Added while paused';
      document.body.append(note);
    });
    await page.mouse.move(200, 200);
    await page.mouse.move(300, 250);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const resumedAt = Date.now();
    await popup.getByRole('button', { name: 'Resume' }).click();
    await popupShows(popup, '#phase', /^recording/);
    await page.mouse.move(100, 100);
    const chunks = await eventually(async () => {
      const stored = await storedChunks(session.sessionId);
      return stored.some((chunk) => chunk.started_at.getTime() >= resumedAt) ? stored : undefined;
    });
    const during = chunks
      .flatMap((chunk) => chunk.events)
      .filter((event) => event.timestamp > pausedAt + 200 && event.timestamp < resumedAt);
    assert.deepEqual(during, [], 'events recorded while paused');
    const after = chunks.filter((chunk) => chunk.started_at.getTime() >= resumedAt);
    assert.ok(after[0]!.has_full_snapshot, 'the recording goes on from a full snapshot');
  });
});
