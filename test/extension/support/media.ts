import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { asSystem } from '../../../db/doors.ts';
import { testDatabase } from '../../support/database.ts';
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
export async function studyRecords(jobId: string, signals: 'facial' | 'voice'): Promise<void> {
  const column = signals === 'facial' ? sql`record_facial` : sql`record_voice`;
  await asSystem(testDatabase(), (tx) =>
    sql`update studies set ${column} = true where id = ${jobId}`.execute(tx),
  );
}

/** The tester answers the popup's camera or microphone question with the keyboard. */
export async function answerPrompt(popup: Page, device: 'camera' | 'microphone', answer: 'allow' | 'refuse') {
  const section = popup.locator(`#${device}-consent`);
  await section
    .getByRole('heading', { name: `This study asks for your ${device}` })
    .waitFor({ timeout: 20_000 });
  await section.getByRole('button', { name: answer === 'allow' ? `Allow ${device}` : 'Not now' }).focus();
  await popup.keyboard.press('Enter');
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
    this.timeout(120_000);
    let dir = '';
    before(async () => (dir = await mkdtemp(join(tmpdir(), 'usability-media-'))));
    after(() => rm(dir, { recursive: true, force: true }));
    const suite = extensionSuite(() => devices(dir));
    before(() => studyRecords(suite.study.jobId, signals));
    body(suite);
  });
}
