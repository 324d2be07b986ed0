import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { asSystem } from '../../../db/doors.ts';
import { testDatabase } from '../../support/database.ts';
import { waitFor } from '../../sessions/fixtures.ts';
import type { ApiProxy } from './api-proxy.ts';
import type { FakeCamera } from './browser.ts';
import { extensionSuite, type ExtensionSuite } from './suite.ts';

/** The keys a snapshots item may carry: the spec's facial frame item and the no-face marker. */
const FRAME_KEYS = new Set([
  'frameIndex',
  'timestamp',
  'emotions',
  'attentionScore',
  'gazeX',
  'gazeY',
  'faceDetected',
]);
/** The spec's voice segment item. */
const SEGMENT_KEYS = new Set([
  'segmentIndex',
  'startTime',
  'endTime',
  'transcript',
  'sentiment',
  'sentimentScore',
  'hesitationCount',
  'wordsPerMinute',
]);
/** Base64 openings of JPEG, PNG, WebP/WAV (RIFF), WebM/Matroska, Ogg, MP4, and data URLs of media. */
const MEDIA_SIGNATURES = [
  '/9j/',
  'iVBORw0KGgo',
  'UklGR',
  'GkXfo',
  'T2dnU',
  'AAAAIGZ0eXA',
  'data:image',
  'data:audio',
];

/** Every request body the extension sent: no image, no sound, only the items' own fields. */
export function assertNoMediaSent(proxy: ApiProxy): void {
  for (const request of proxy.requests) {
    for (const signature of MEDIA_SIGNATURES)
      assert.ok(!request.body.includes(signature), `${request.method} ${request.path} carries ${signature}`);
    assert.ok(request.body.length < 200_000, `${request.path}: a body of ${request.body.length} bytes`);
    const keys = request.path.endsWith('/snapshots')
      ? FRAME_KEYS
      : request.path.endsWith('/voice')
        ? SEGMENT_KEYS
        : null;
    if (!keys) continue;
    const { batch } = JSON.parse(request.body) as { batch: Record<string, unknown>[] };
    for (const item of batch)
      for (const key of Object.keys(item)) assert.ok(keys.has(key), `a ${request.path} item carries ${key}`);
  }
}

/** Turns on the study's settings for the signals under test. */
export async function studyRecords(
  jobId: string,
  signals: 'facial' | 'voice' | 'think-aloud',
): Promise<void> {
  const column = {
    facial: sql`record_facial`,
    voice: sql`record_voice`,
    'think-aloud': sql`require_think_aloud`,
  }[signals];
  await asSystem(testDatabase(), (tx) =>
    sql`update studies set ${column} = true where id = ${jobId}`.execute(tx),
  );
}

/**
 * The tester answers the popup's camera or microphone question with the keyboard. Allow opens the
 * extension's permission tab (Chrome shows its prompt only in a tab), which is returned; null when
 * the extension already held the permission and opened none.
 */
export async function answerPrompt(
  popup: Page,
  device: 'camera' | 'microphone',
  answer: 'allow' | 'refuse',
): Promise<Page | null> {
  const section = popup.locator(`#${device}-consent`);
  await section
    .getByRole('heading', { name: `This study asks for your ${device}` })
    .waitFor({ timeout: 20_000 });
  const opened = popup
    .context()
    .waitForEvent('page', { predicate: (tab) => tab.url().includes('/permission.html'), timeout: 20_000 });
  opened.catch(() => undefined);
  await section.getByRole('button', { name: answer === 'allow' ? `Allow ${device}` : 'Not now' }).focus();
  await popup.keyboard.press('Enter');
  if (answer === 'refuse') return null;
  // The answer is recorded at once when the extension already holds the permission; otherwise only
  // after the tab has opened.
  const answered = section
    .waitFor({ state: 'hidden', timeout: 20_000 })
    .then(() => null)
    .catch(() => null);
  return Promise.race([opened, answered]);
}

/** The permission tab's button, which has the focus when the tab opens; Enter asks the browser. */
async function askTheBrowser(tab: Page, label: string): Promise<void> {
  await tab.getByRole('button', { name: label }).waitFor();
  // Focused when the tab opens, so Enter presses it.
  await waitFor(async () => (await tab.evaluate(() => document.activeElement?.textContent)) === label).catch(
    () => assert.fail(`"${label}" is not focused when the tab opens`),
  );
  await tab.keyboard.press('Enter');
}

/**
 * Allow in the popup, then in the permission tab: the tester presses Ask the browser and allows the
 * browser's prompt (headless Chromium shows none: the test grants what the tester would), and the
 * tab closes itself.
 */
export async function allowDevice(popup: Page, device: 'camera' | 'microphone'): Promise<void> {
  const tab = await answerPrompt(popup, device, 'allow');
  assert.ok(tab, "Allow asked in a tab of its own (a popup cannot show the browser's prompt)");
  await tab.getByRole('heading', { name: `Allow the ${device} for the usability session` }).waitFor();
  await popup.context().grantPermissions([device]);
  const closed = tab.waitForEvent('close');
  await askTheBrowser(tab, 'Ask the browser');
  await closed;
}

/**
 * The permission tab when the browser says no: it says so and how to change it, offers to ask again
 * and closes from the keyboard.
 */
export async function refusedInTab(tab: Page, device: 'camera' | 'microphone'): Promise<void> {
  const refused = new RegExp(`The ${device} was not allowed \\(NotAllowedError\\): the session goes on`);
  await askTheBrowser(tab, 'Ask the browser');
  await tab.getByRole('status').filter({ hasText: refused }).waitFor({ timeout: 20_000 });
  await tab.getByText('To allow it now').waitFor();
  await askTheBrowser(tab, 'Ask again');
  await tab.getByRole('status').filter({ hasText: refused }).waitFor({ timeout: 20_000 });
  await tab.keyboard.press('Tab');
  assert.equal(await tab.evaluate(() => document.activeElement?.textContent), 'Close this tab');
  const closed = tab.waitForEvent('close');
  // The tab is gone before the key press returns.
  await tab.keyboard.press('Enter').catch(() => undefined);
  await closed;
}

/** The extension API as the worker's evaluated functions see it (the Node project has no chrome types). */
declare const chrome: {
  action: { getBadgeText(details: object): Promise<string> };
  runtime: { getContexts(filter: { contextTypes: string[] }): Promise<unknown[]> };
};

export const badgeText = (suite: ExtensionSuite) =>
  suite.browser.worker.evaluate(() => chrome.action.getBadgeText({}));

/** A describe block whose browsers have Chromium's fake devices, on a study recording `signals`. */
export function mediaSuite(
  name: string,
  devices: (dir: string) => Promise<FakeCamera>,
  signals: 'facial' | 'voice',
  body: (suite: ExtensionSuite) => void,
) {
  describe(name, function () {
    this.timeout(240_000);
    let dir = '';
    before(async () => (dir = await mkdtemp(join(tmpdir(), 'usability-media-'))));
    after(() => rm(dir, { recursive: true, force: true }));
    const suite = extensionSuite(() => devices(dir));
    before(() => studyRecords(suite.study.jobId, signals));
    body(suite);
  });
}
