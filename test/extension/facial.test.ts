import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { waitFor } from '../sessions/fixtures.ts';
import type { ApiProxy } from './support/api-proxy.ts';
import type { FakeCamera } from './support/browser.ts';
import { blankVideo, smilingFaceVideo } from './support/fake-camera.ts';
import { clicked, popupShows, waitForEvents } from './support/session.ts';
import { extensionSuite, type ExtensionSuite } from './support/suite.ts';

interface FrameRow {
  frame_index: number;
  captured_at: Date;
  face_detected: boolean;
  emotion: string | null;
  confidences: Record<string, number>;
  attention_score: number;
}

const frameRows = (sessionId: string) =>
  asSystem(testDatabase(), (tx) =>
    sql<FrameRow>`select frame_index, captured_at, face_detected, emotion, confidences, attention_score
                  from facial_snapshots where session_id = ${sessionId} order by frame_index`.execute(tx),
  ).then((result) => result.rows);

async function waitForFrames(sessionId: string, done: (rows: FrameRow[]) => boolean): Promise<FrameRow[]> {
  let rows: FrameRow[] = [];
  await waitFor(async () => done((rows = await frameRows(sessionId))), 1_200).catch(() =>
    assert.fail(`frames never arrived; stored: ${JSON.stringify(rows)}`),
  );
  return rows;
}

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
/** Base64 openings of JPEG, PNG, WebP/WAV (RIFF), WebM/Matroska, Ogg, MP4 and raw image data URLs. */
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
function assertNoMediaSent(proxy: ApiProxy): void {
  for (const request of proxy.requests) {
    for (const signature of MEDIA_SIGNATURES)
      assert.ok(!request.body.includes(signature), `${request.method} ${request.path} carries ${signature}`);
    assert.ok(request.body.length < 200_000, `${request.path}: a body of ${request.body.length} bytes`);
    if (request.path.endsWith('/snapshots')) {
      const { batch } = JSON.parse(request.body) as { batch: Record<string, unknown>[] };
      for (const item of batch)
        for (const key of Object.keys(item))
          assert.ok(FRAME_KEYS.has(key), `a snapshots item carries ${key}`);
    }
  }
}

async function studyRecordsFacial(jobId: string): Promise<void> {
  await asSystem(testDatabase(), (tx) =>
    sql`update studies set record_facial = true where id = ${jobId}`.execute(tx),
  );
}

/** The tester answers the popup's camera question with the keyboard. */
async function answerCamera(popup: Page, answer: 'Allow camera' | 'Not now'): Promise<void> {
  await popup.getByRole('heading', { name: 'This study asks for your camera' }).waitFor({ timeout: 20_000 });
  await popup.getByRole('button', { name: answer }).focus();
  await popup.keyboard.press('Enter');
}

/** The extension API as the worker's evaluated functions see it (the Node project has no chrome types). */
declare const chrome: {
  action: { getBadgeText(details: object): Promise<string> };
  runtime: { getContexts(filter: { contextTypes: string[] }): Promise<unknown[]> };
};

const badgeText = (suite: ExtensionSuite) =>
  suite.browser.worker.evaluate(() => chrome.action.getBadgeText({}));

function cameraSuite(
  name: string,
  camera: (dir: string) => Promise<string> | 'deny',
  body: (suite: ExtensionSuite) => void,
) {
  describe(name, function () {
    this.timeout(120_000);
    let dir = '';
    before(async () => (dir = await mkdtemp(join(tmpdir(), 'usability-camera-'))));
    after(() => rm(dir, { recursive: true, force: true }));
    const suite = extensionSuite(async (): Promise<FakeCamera> => {
      const video = camera(dir);
      return video === 'deny' ? 'deny' : { video: await video };
    });
    before(() => studyRecordsFacial(suite.study.jobId));
    body(suite);
  });
}

cameraSuite('Browser extension: facial frames from a face', smilingFaceVideo, (suite) => {
  it('asks first, then sends scores of the face once a second, never a picture; pause stops the camera', async () => {
    const { session, popup } = await suite.startRecording();
    await popupShows(popup, '#camera', 'waiting for your answer');
    await answerCamera(popup, 'Allow camera');
    await popupShows(popup, '#camera', /^on: expression scores only/);
    await waitFor(async () => (await badgeText(suite)) === 'CAM').catch(() => assert.fail('no CAM badge'));

    const rows = await waitForFrames(session.sessionId, (stored) => stored.length >= 4);
    assert.ok(
      rows.every((row) => row.face_detected),
      JSON.stringify(rows),
    );
    const happy = rows.filter((row) => row.emotion === 'happy').length;
    assert.ok(happy >= rows.length - 1, `dominant emotions: ${rows.map((row) => row.emotion).join(', ')}`);
    assert.ok(
      rows.every((row) => row.attention_score > 0.3),
      `attention ${rows.map((r) => r.attention_score).join(', ')}`,
    );
    for (const row of rows) {
      const sum = Object.values(row.confidences).reduce((total, score) => total + score, 0);
      assert.ok(Math.abs(sum - 1) < 0.01, `confidences sum to ${sum}`);
    }
    // One frame a second at least: four frames span at most a few seconds.
    const span = rows[3]!.captured_at.getTime() - rows[0]!.captured_at.getTime();
    assert.ok(span <= 4_500, `4 frames over ${span} ms`);

    await popup.getByRole('button', { name: 'Pause' }).focus();
    const pausedAt = Date.now();
    await popup.keyboard.press('Enter');
    await popupShows(popup, '#phase', /^paused/);
    await waitFor(async () => (await badgeText(suite)) === '').catch(() =>
      assert.fail('the CAM badge stayed'),
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = await frameRows(session.sessionId);
    const late = after.filter((row) => row.captured_at.getTime() > pausedAt + 1_000);
    assert.deepEqual(late, [], 'frames were captured more than one sample after the pause');
    const contexts = await suite.browser.worker.evaluate(() =>
      chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }),
    );
    assert.equal(contexts.length, 0, 'the camera document is still open while paused');
    assertNoMediaSent(suite.proxy);
  });
});

cameraSuite('Browser extension: facial frames without a face', blankVideo, (suite) => {
  it('sends frames without a face, stored with face_detected = false', async () => {
    const { session, popup } = await suite.startRecording();
    await answerCamera(popup, 'Allow camera');
    const rows = await waitForFrames(session.sessionId, (stored) => stored.length >= 2);
    assert.ok(
      rows.every((row) => !row.face_detected && row.emotion === null),
      JSON.stringify(rows),
    );
    assertNoMediaSent(suite.proxy);
  });

  it('"Not now" never opens the camera, records no frame and keeps the events', async () => {
    const { session, popup, page } = await suite.startRecording();
    await answerCamera(popup, 'Not now');
    await popupShows(popup, '#camera', 'not allowed: events only');
    await page.click('#to-two');
    await waitForEvents(session.sessionId, clicked('#to-two'));
    const contexts = await suite.browser.worker.evaluate(() =>
      chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }),
    );
    assert.equal(contexts.length, 0, 'the camera was opened although the tester said "Not now"');
    assert.deepEqual(await frameRows(session.sessionId), []);
  });
});

cameraSuite(
  'Browser extension: the camera refused',
  () => 'deny',
  (suite) => {
    it('says so and keeps sending events alone', async () => {
      const { session, popup, page } = await suite.startRecording();
      await answerCamera(popup, 'Allow camera');
      await popupShows(popup, '#message', /events only/);
      await popupShows(popup, '#camera', 'not allowed: events only');
      await page.click('#to-two');
      await waitForEvents(session.sessionId, clicked('#to-two'));
      assert.deepEqual(await frameRows(session.sessionId), []);
    });
  },
);
