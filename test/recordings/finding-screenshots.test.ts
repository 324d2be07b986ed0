import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { RRWEB_SCRIPT } from '../../activities/recordings/moment-screenshot.ts';
import { asSystem } from '../../db/doors.ts';
import { saveFindingScreenshot } from '../../db/repositories/finding-screenshots.ts';
import { SCREENSHOT_GAP_WORDS, SCREENSHOT_PENDING_WORDS } from '../../lib/finding-screenshots.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from '../audits/harness.ts';
import { findingScreenshotsWorkflow } from '../../workflows/finding-screenshots.ts';
import { testConfig } from '../support/config.ts';
import { testDatabase } from '../support/database.ts';
import { temporalEnvironment, TEST_TASK_QUEUE } from '../support/temporal.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { countOf, escaped, PageClient } from '../pages/page-client.ts';
import { axeViolations, launchChromium, tabTo } from '../pages/keyboard.ts';
import { BrowserPool } from '../../activities/audits/browser-pool.ts';
import { auditPage } from '../../activities/audits/page-audit.ts';
import { AUDIT_CATEGORIES } from '../../lib/audits.ts';
import {
  analyzedSession,
  businessWithStudy,
  completedReportJob,
  type TesterSession,
} from '../sessions/fixtures.ts';

interface Screenshot {
  url: string;
  alt: string;
  width: number;
  height: number;
  source: 'replay' | 'reconstructed';
  pageUrl: string | null;
  outlined: boolean;
  capturedAt: string;
}
interface Finding {
  findingId: string;
  title: string;
  timestamp: string;
  screenshots?: Screenshot[];
  screenshotNote?: string | null;
}

interface RecordedEvent {
  type: number;
  timestamp: number;
}

/** How many pixels of a PNG are an outline's red (the replay's #d00000 or the audit kit's #d0021b). */
async function redPixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let count = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (Math.abs(data[i]! - 0xd0) < 24 && data[i + 1]! < 40 && data[i + 2]! < 40) count += 1;
  return count;
}

const pngOf = (shot: Screenshot) => Buffer.from(shot.url.slice('data:image/png;base64,'.length), 'base64');

// Issue 32, point 3: with includeScreenshots every finding of a report carries a picture of its
// moment, made on the audit worker: replayed from the session's DOM recording, reconstructed from
// the public prototype page when no recording covers it, or none and why.
describe('POST /api/reports includeScreenshots: a picture of each finding', function () {
  this.timeout(180_000);
  let harness: AuditHarness;
  let business: string;
  let jobId: string;
  const prototypePath = '/checkout-prototype.html';

  before(async () => {
    harness = await acquireAuditHarness();
    ({ business, jobId } = await businessWithStudy(harness.api, 10));
    await setPrototype(`${harness.fixtures.url}${prototypePath}`);
  });
  after(() => releaseAuditHarness());

  const setPrototype = (url: string) =>
    asSystem(testDatabase(), (tx) =>
      tx.updateTable('studies').set({ prototype_url: url }).where('id', '=', jobId).execute(),
    );

  /** An analysed session, confirmed by its tester, with its tester report written. */
  async function reportedSession(): Promise<TesterSession & { findings: Finding[] }> {
    const session = await analyzedSession(harness.api, business, jobId);
    const confirmed = await harness.api.request('POST', `/api/sessions/${session.sessionId}/confirm`, {
      body: { rating: 4 },
      token: session.testerToken,
    });
    assert.equal(confirmed.status, 200, confirmed.text);
    const job = await completedReportJob(harness.api, session.sessionId, business);
    const read = await harness.api.request('GET', `/api/reports/${job.reportId}`, { token: business });
    const findings = (read.body.data as { report: { findings: Finding[] } }).report.findings;
    assert.ok(findings.length >= 2, read.text);
    return { ...session, findings };
  }

  /** Asks for the report with screenshots, then reads it until no finding waits for its picture. */
  async function reportWithScreenshots(
    sessionId: string,
    token: string,
    waitingNotes: readonly string[] = [SCREENSHOT_PENDING_WORDS],
  ): Promise<Finding[]> {
    const job = await completedReportJob(harness.api, sessionId, token, { includeScreenshots: true });
    let findings: Finding[] = [];
    for (const until = Date.now() + 120_000; Date.now() < until;) {
      const read = await harness.api.request('GET', job.reportUrl!, { token });
      assert.equal(read.status, 200, read.text);
      findings = (read.body.data as { report: { findings: Finding[] } }).report.findings;
      if (findings.every((finding) => !waitingNotes.includes(finding.screenshotNote ?? ''))) return findings;
      // Slowly: the API limits a caller to 600 requests a minute.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    assert.fail(`the pictures were not made: ${JSON.stringify(findings.map((f) => f.screenshotNote))}`);
  }

  const selectorsOf = async (findings: readonly Finding[]) =>
    new Map(
      (
        await asSystem(testDatabase(), (tx) =>
          tx
            .selectFrom('session_notes')
            .select(['id', 'target_selector'])
            .where(
              'id',
              'in',
              findings.map((finding) => finding.findingId),
            )
            .execute(),
        )
      ).map((note) => [note.id, note.target_selector]),
    );

  /**
   * A real rrweb recording of the prototype page made in Chromium: the page as it loads, then the
   * card's error shown. Its clock is moved so that the page is recorded from 5 s before `first` and
   * the error appears 1 s before `second`; stored as two chunks, as the extension sends them.
   */
  async function storeRecording(sessionId: string, first: number, second: number) {
    const browser = await chromium.launch({
      executablePath: testConfig().audits.chromiumPath,
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
    let events: RecordedEvent[];
    let errorShownAt: number;
    try {
      const page = await browser.newPage({ viewport: { width: 900, height: 700 } });
      await page.goto(`${harness.fixtures.url}${prototypePath}`);
      await page.addScriptTag({ content: RRWEB_SCRIPT });
      await page.evaluate(
        'window.events = []; rrweb.record({ emit(event) { window.events.push(event); }, maskAllInputs: true })',
      );
      await page.waitForTimeout(200);
      errorShownAt = Date.now();
      await page.evaluate(
        "document.getElementById('card-error').textContent = 'The card number is incomplete'",
      );
      await page.waitForTimeout(200);
      events = await page.evaluate<RecordedEvent[]>('window.events');
    } finally {
      await browser.close();
    }
    const before = events.filter((event) => event.timestamp < errorShownAt);
    const after = events.filter((event) => event.timestamp >= errorShownAt);
    assert.ok(before.some((event) => event.type === 2) && after.length > 0);
    const shift = (list: RecordedEvent[], from: number, to: number) =>
      list.map((event) => ({ ...event, timestamp: event.timestamp - from + to }));
    const chunks = [
      shift(before, before[0]!.timestamp, first - 5_000),
      shift(after, errorShownAt, second - 1_000),
    ];
    await asSystem(testDatabase(), (tx) =>
      tx
        .insertInto('session_recording_chunks')
        .values(
          chunks.map((list, seq) => {
            const data = gzipSync(JSON.stringify(list));
            return {
              session_id: sessionId,
              seq,
              started_at: new Date(list[0]!.timestamp),
              ended_at: new Date(list.at(-1)!.timestamp),
              event_count: list.length,
              has_full_snapshot: list.some((event) => event.type === 2),
              data,
              byte_length: data.length,
            };
          }),
        )
        .execute(),
    );
  }

  it("replays the recording to each finding's moment, the element outlined, with a text alternative", async () => {
    const session = await reportedSession();
    const moments = session.findings.map((finding) => Date.parse(finding.timestamp)).sort((a, b) => a - b);
    await storeRecording(session.sessionId, moments[0]!, moments.at(-1)!);
    const selectors = await selectorsOf(session.findings);

    const findings = await reportWithScreenshots(session.sessionId, business);
    const pictures = new Map<string, Buffer>();
    for (const finding of findings) {
      assert.equal(finding.screenshotNote, null, finding.title);
      assert.equal(finding.screenshots!.length, 1);
      const [shot] = finding.screenshots!;
      assert.equal(shot!.source, 'replay');
      assert.match(shot!.url, /^data:image\/png;base64,/);
      assert.equal(shot!.pageUrl, `${harness.fixtures.url}${prototypePath}`);
      assert.equal(shot!.width, 900);
      const png = pngOf(shot!);
      const meta = await sharp(png).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 900, 700]);
      // The element each finding names is on the prototype page, and outlined in red.
      const selector = selectors.get(finding.findingId)!;
      assert.ok(['#pay', '#card-number'].includes(selector), selector);
      assert.equal(shot!.outlined, true);
      assert.ok((await redPixels(png)) > 200, `${selector} is outlined`);
      assert.ok(shot!.alt.includes(`"${finding.title}"`), shot!.alt);
      assert.ok(shot!.alt.includes(`the element ${selector} is outlined in red`), shot!.alt);
      assert.match(shot!.alt, /replayed from the session's screen recording/);
      pictures.set(selector, png);
    }
    // Two moments, two pictures: the card's error shows only in the later one.
    assert.notDeepEqual(pictures.get('#pay'), pictures.get('#card-number'));

    // The tester sees the same pictures; erasing the recording takes them away, with the reason.
    const tester = await reportWithScreenshots(session.sessionId, session.testerToken);
    assert.deepEqual(
      tester.map((finding) => finding.screenshots![0]!.url),
      findings.map((finding) => finding.screenshots![0]!.url),
    );
    const erased = await harness.api.request('DELETE', `/api/sessions/${session.sessionId}/recording`, {
      token: session.testerToken,
    });
    assert.equal(erased.status, 200, erased.text);
    for (const finding of await reportWithScreenshots(session.sessionId, business)) {
      assert.deepEqual(finding.screenshots, []);
      assert.equal(finding.screenshotNote, SCREENSHOT_GAP_WORDS.recording_erased);
    }
    // A replay finished after the erasure (it read the chunks before) is not stored.
    await asSystem(testDatabase(), (tx) =>
      saveFindingScreenshot(
        tx,
        { sessionId: session.sessionId, noteId: findings[0]!.findingId, moment: new Date(moments[0]!) },
        {
          source: 'replay',
          png: pictures.get('#pay')!,
          width: 900,
          height: 700,
          altText: 'late',
          pageUrl: null,
          outlined: true,
        },
      ),
    );
    const stored = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('finding_screenshots')
        .select(['source', 'gap'])
        .where('note_id', '=', findings[0]!.findingId)
        .executeTakeFirstOrThrow(),
    );
    assert.deepEqual(stored, { source: 'none', gap: 'recording_erased' });
  });

  it('without a recording, pictures the public prototype page fresh and says it is reconstructed; a private prototype gets a reason', async () => {
    const session = await reportedSession();
    const findings = await reportWithScreenshots(session.sessionId, business);
    for (const finding of findings) {
      assert.equal(finding.screenshotNote, null);
      const [shot] = finding.screenshots!;
      assert.equal(shot!.source, 'reconstructed');
      assert.equal(shot!.pageUrl, `${harness.fixtures.url}${prototypePath}`);
      assert.equal(shot!.outlined, true);
      assert.match(
        shot!.alt,
        /reconstructed because no screen recording covers .* \(not the tester's screen\)/,
      );
      assert.ok((await redPixels(pngOf(shot!))) > 200);
    }

    // A prototype the audit's URL guard refuses (a private address not allowed): no picture, and why.
    const other = await reportedSession();
    await setPrototype('http://10.0.0.1/checkout');
    try {
      for (const finding of await reportWithScreenshots(other.sessionId, business)) {
        assert.deepEqual(finding.screenshots, []);
        assert.equal(finding.screenshotNote, SCREENSHOT_GAP_WORDS.prototype_blocked);
      }
    } finally {
      await setPrototype(`${harness.fixtures.url}${prototypePath}`);
    }
  });

  it('reads the pictures only with includeScreenshots, and only where the report is readable', async () => {
    const session = await reportedSession();
    await reportWithScreenshots(session.sessionId, business);
    const job = await completedReportJob(harness.api, session.sessionId, business);
    const plain = await harness.api.request('GET', `/api/reports/${job.reportId}`, { token: business });
    for (const finding of (plain.body.data as { report: { findings: Finding[] } }).report.findings) {
      assert.equal('screenshots' in finding, false);
      assert.equal('screenshotNote' in finding, false);
    }
    const stranger = await sessionToken((await createBusiness('pro')).claims);
    const refused = await harness.api.request('GET', `/api/reports/${job.reportId}?includeScreenshots=true`, {
      token: stranger,
    });
    assert.equal(refused.status, 404);
  });

  it('says no browser made the pictures when none took them in time, and a later request tries again', async () => {
    const session = await reportedSession();
    // No worker polls the capture queue; the workflow is given 2 s instead of 3 hours.
    const { client } = await temporalEnvironment();
    const outcome = await client.workflow.execute(findingScreenshotsWorkflow, {
      taskQueue: TEST_TASK_QUEUE,
      workflowId: `finding-screenshots-no-browser-${session.sessionId}`,
      args: [
        { sessionId: session.sessionId, captureQueue: `nobody-polls-${process.pid}`, captureWithinMs: 2_000 },
      ],
    });
    assert.deepEqual(outcome, {
      replayed: 0,
      reconstructed: 0,
      missing: 0,
      unpictured: session.findings.length,
    });
    const job = await completedReportJob(harness.api, session.sessionId, business);
    const read = await harness.api.request('GET', `/api/reports/${job.reportId}?includeScreenshots=true`, {
      token: business,
    });
    for (const finding of (read.body.data as { report: { findings: Finding[] } }).report.findings) {
      assert.deepEqual(finding.screenshots, []);
      assert.equal(finding.screenshotNote, SCREENSHOT_GAP_WORDS.no_browser);
    }
    // Asked for again where a browser is: the pictures are made this time.
    const again = await reportWithScreenshots(session.sessionId, business, [
      SCREENSHOT_PENDING_WORDS,
      SCREENSHOT_GAP_WORDS.no_browser,
    ]);
    for (const finding of again) {
      assert.equal(finding.screenshots![0]!.source, 'reconstructed');
    }
  });

  it('the report page offers to make the pictures, then shows each with its text alternative', async () => {
    const session = await reportedSession();
    const job = await completedReportJob(harness.api, session.sessionId, business);
    const page = new PageClient(harness.api.url);
    page.useSession(business);
    const before = await page.get(`/reports/${job.reportId}`);
    assert.equal(before.status, 200);
    assert.match(before.html, /2 findings have no picture of their moment yet/);
    assert.equal(countOf(before.html, /No picture of this moment yet\./g), 2);
    const asked = await page.post(`/reports/${job.reportId}/screenshots`, {});
    assert.equal(asked.status, 303, asked.html);
    assert.equal(asked.location, `/reports/${job.reportId}#findings`);
    const findings = await reportWithScreenshots(session.sessionId, business);
    const after = await page.get(`/reports/${job.reportId}`);
    assert.equal(countOf(after.html, /<figure class="moment">/g), findings.length);
    assert.doesNotMatch(after.html, /Make the pictures/);
    for (const finding of findings) {
      const [shot] = finding.screenshots!;
      assert.ok(
        after.html.includes(`alt="${escaped(shot!.alt)}"`),
        `the page shows the picture of "${finding.title}"`,
      );
      assert.ok(after.html.includes(`src="${shot!.url}"`));
    }
    assert.match(after.html, /Reconstructed: the prototype page as it loads now, not the tester's screen/);
    // Someone who may not read the report cannot have its pictures made.
    const stranger = new PageClient(harness.api.url);
    stranger.useSession(await sessionToken((await createBusiness('pro')).claims));
    await stranger.get('/dashboard');
    assert.equal((await stranger.post(`/reports/${job.reportId}/screenshots`, {})).status, 404);
  });

  it("the report and review pages replay each finding's moment in a player worked by keyboard alone, grade A", async () => {
    const session = await reportedSession();
    const moments = session.findings.map((finding) => Date.parse(finding.timestamp)).sort((a, b) => a - b);
    await storeRecording(session.sessionId, moments[0]!, moments.at(-1)!);
    const job = await completedReportJob(harness.api, session.sessionId, business);
    const later = session.findings.find((finding) => Date.parse(finding.timestamp) === moments.at(-1))!;
    const playerPath = `/sessions/${session.sessionId}/moments/${later.findingId}`;

    const client = new PageClient(harness.api.url);
    client.useSession(business);
    const report = await client.get(`/reports/${job.reportId}`);
    assert.match(report.headers.get('content-security-policy')!, /frame-src 'self'/);
    for (const finding of session.findings) {
      assert.ok(
        report.html.includes(
          `src="/sessions/${session.sessionId}/moments/${finding.findingId}" title="Replay of the moment: ${escaped(finding.title)}"`,
        ),
        `the report frames the replay of "${finding.title}"`,
      );
    }
    // The tester watches each finding on the review page too, where it was confirmed.
    const review = new PageClient(harness.api.url);
    review.useSession(session.testerToken);
    const reviewPage = await review.get(`/sessions/${session.sessionId}/review`);
    assert.equal(reviewPage.status, 200);
    assert.match(reviewPage.headers.get('content-security-policy')!, /frame-src 'self'/);
    for (const finding of session.findings) {
      assert.ok(
        reviewPage.html.includes(`src="/sessions/${session.sessionId}/moments/${finding.findingId}"`),
      );
    }
    assert.equal((await review.get(playerPath)).status, 200);

    // Before confirming: the tester watches each finding on the review form; the business cannot yet.
    const pending = await analyzedSession(harness.api, business, jobId);
    const notes = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_notes')
        .select(['id', 'noted_at'])
        .where('session_id', '=', pending.sessionId)
        .where('author_kind', '=', 'agent')
        .where('pattern', '=', false)
        .execute(),
    );
    const noted = notes.map((note) => note.noted_at!.getTime()).sort((a, b) => a - b);
    await storeRecording(pending.sessionId, noted[0]!, noted.at(-1)!);
    const form = new PageClient(harness.api.url);
    form.useSession(pending.testerToken);
    const reviewForm = await form.get(`/sessions/${pending.sessionId}/review`);
    assert.match(reviewForm.html, /name="decision-/);
    for (const note of notes) {
      const path = `/sessions/${pending.sessionId}/moments/${note.id}`;
      assert.ok(reviewForm.html.includes(`src="${path}"`), 'the form frames the replay');
      assert.equal((await form.get(path)).status, 200);
      assert.equal((await client.get(path)).status, 404, 'no unconfirmed finding reaches the business');
    }
    // The study page frames the most severe confirmed findings of its recorded sessions, never a pending one.
    const studyPage = await client.get(`/dashboard/jobs/${jobId}`);
    assert.match(studyPage.headers.get('content-security-policy')!, /frame-src 'self'/);
    const framed = [...studyPage.html.matchAll(/src="\/sessions\/([0-9a-f-]+)\/moments\/([0-9a-f-]+)"/g)];
    assert.ok(framed.length >= 1 && framed.length <= 10, `${framed.length} players on the study page`);
    const framedNotes = await asSystem(testDatabase(), (tx) =>
      tx
        .selectFrom('session_notes')
        .select(['id', 'confirmed', 'session_id'])
        .where(
          'id',
          'in',
          framed.map((match) => match[2]!),
        )
        .execute(),
    );
    assert.equal(framedNotes.length, framed.length);
    assert.ok(
      framedNotes.every((note) => note.confirmed),
      'only confirmed findings',
    );
    assert.ok(!framedNotes.some((note) => note.session_id === pending.sessionId), 'none of a pending review');
    assert.match(studyPage.html, /<h2 id="moments-title">Findings to watch<\/h2>/);
    const player = await client.get(playerPath);
    assert.equal(player.status, 200);
    assert.match(player.headers.get('content-security-policy')!, /frame-ancestors 'self'/);
    // Nobody else watches it; a session without a recording has nothing to replay.
    const stranger = new PageClient(harness.api.url);
    stranger.useSession(await sessionToken((await createBusiness('pro')).claims));
    assert.equal((await stranger.get(playerPath)).status, 404);

    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
      await context.addCookies([{ name: 'session', value: business, url: harness.api.url }]);
      const page = await context.newPage();
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      // The page finishes loading (the replayed document inside it is closed once rebuilt).
      await page.goto(harness.api.url + playerPath, { waitUntil: 'load', timeout: 15_000 });
      await page.waitForSelector('html[data-player="ready"]');
      const replayed = () =>
        page.evaluate<string>(
          `document.querySelector('#stage iframe').contentDocument.getElementById('card-error')?.textContent ?? ''`,
        );
      const position = () => page.locator('#position-text').textContent();
      // It opens at the moment: the card's error (shown 1 s before) is on the replayed page.
      assert.equal(await position(), 'at the moment of the finding');
      assert.equal(await replayed(), 'The card number is incomplete');
      await tabTo(page, '#play');
      await tabTo(page, '#back-to-moment');
      await tabTo(page, '#position');
      await page.keyboard.press('Home');
      assert.equal(await position(), '5.0 s before the moment');
      assert.equal(await replayed(), '', 'before the error appeared');
      await page.keyboard.press('ArrowRight');
      assert.equal(await position(), '4.5 s before the moment');
      // Played from there with the keyboard: the position moves on, then Pause stops it.
      // Polled from here: the page's policy refuses the string evaluation waitForFunction uses.
      const value = () => page.evaluate<number>(`Number(document.getElementById('position').value)`);
      const from = await value();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('#play').textContent(), 'Pause');
      // Any step forward proves it plays; a loaded machine may give the page few frames a second.
      for (let tries = 0; tries < 300 && (await value()) <= from; tries++) await page.waitForTimeout(50);
      assert.ok((await value()) > from, 'the position moves on while playing');
      await page.keyboard.press('Enter');
      assert.equal(await page.locator('#play').textContent(), 'Play');
      await tabTo(page, '#back-to-moment');
      await page.keyboard.press('Enter');
      assert.equal(await position(), 'at the moment of the finding');
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }

    // The project's own audit of the player page and the pages that frame it: grade A, nothing critical or serious.
    const pool = new BrowserPool({
      executablePath: testConfig().audits.chromiumPath,
      size: 1,
      egress: { allowPrivate: true, allowedHosts: [] },
    });
    await pool.start();
    try {
      await pool.withPage(
        { viewport: { width: 1280, height: 800 }, timeoutMs: 60_000 },
        async (page, egress) => {
          await page.context().addCookies([{ name: 'session', value: business, url: harness.api.url }]);
          for (const path of [playerPath, `/dashboard/jobs/${jobId}`, `/reports/${job.reportId}`]) {
            const audit = await auditPage(page, harness.api.url + path, {
              categories: AUDIT_CATEGORIES,
              egress,
              navigationTimeoutMs: 20_000,
              walkDeadline: Date.now() + 30_000,
            });
            const serious = audit.issues.filter((issue) => ['critical', 'serious'].includes(issue.severity));
            assert.equal(audit.grade, 'A', `${path}: ${JSON.stringify(audit.issues)}`);
            assert.deepEqual(serious, [], path);
          }
        },
      );
    } finally {
      await pool.close();
    }
  });
});
