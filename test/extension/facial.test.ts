import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { asSystem } from '../../db/doors.ts';
import { testDatabase } from '../support/database.ts';
import { completedReportJob, waitFor, waitForSessionStatus } from '../sessions/fixtures.ts';
import { blankVideo, smilingFaceVideo } from './support/fake-camera.ts';
import {
  allowDevice,
  answerPrompt,
  assertNoMediaSent,
  badgeText,
  mediaSuite,
  refusedInTab,
} from './support/media.ts';

/** The extension API as the worker's evaluated functions see it. */
declare const chrome: { runtime: { getContexts(filter: { contextTypes: string[] }): Promise<unknown[]> } };
import { clicked, MODEL_LOAD_MS, popupShows, waitForEvents } from './support/session.ts';

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

mediaSuite(
  'Browser extension: facial frames from a face',
  async (dir) => ({ video: await smilingFaceVideo(dir) }),
  'facial',
  (suite) => {
    it('asks first, then sends scores of the face once a second, never a picture; pause stops the camera', async () => {
      const { session, popup } = await suite.startRecording();
      await popupShows(popup, '#camera', 'waiting for your answer');
      await allowDevice(popup, 'camera');
      await popupShows(popup, '#camera', /^on: expression scores only/, MODEL_LOAD_MS);
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

      // Completed from the popup: Agent 2, the tester's confirmation and Agent 3's report read the
      // frames the extension sent, and the report's emotional profile is the smiling face's.
      await popup.getByRole('button', { name: 'Complete' }).focus();
      await popup.keyboard.press('Enter');
      await popupShows(popup, '#phase', 'completed');
      await waitForSessionStatus(suite.api, session.sessionId, suite.study.business, 'analyzed');
      const confirmed = await suite.api.request('POST', `/api/sessions/${session.sessionId}/confirm`, {
        body: { rating: 5, notes: [] },
        token: session.testerToken,
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      const { reportId } = await completedReportJob(suite.api, session.sessionId, session.testerToken);
      const report = await suite.api.request('GET', `/api/reports/${reportId}`, {
        token: session.testerToken,
      });
      assert.equal(report.status, 200, report.text);
      const { emotionalProfile } = (
        report.body.data as { report: { emotionalProfile: { avgPositive: number; avgFrustration: number } } }
      ).report;
      assert.ok(emotionalProfile.avgPositive > 0.5, JSON.stringify(emotionalProfile));
      assert.ok(emotionalProfile.avgFrustration < 0.2, JSON.stringify(emotionalProfile));
      assertNoMediaSent(suite.proxy);
    });
  },
);

mediaSuite(
  'Browser extension: facial frames without a face',
  async (dir) => ({ video: await blankVideo(dir) }),
  'facial',
  (suite) => {
    it('sends frames without a face, stored with face_detected = false', async () => {
      const { session, popup } = await suite.startRecording();
      // The extension already holds the camera (allowed in an earlier session): no tab is opened.
      await suite.browser.context.grantPermissions(['camera']);
      const tabs: string[] = [];
      suite.browser.context.on('page', (tab) => tabs.push(tab.url()));
      await answerPrompt(popup, 'camera', 'allow');
      await popupShows(popup, '#camera', /^on: expression scores only/, MODEL_LOAD_MS);
      assert.deepEqual(tabs, [], 'a permission tab opened although the camera was allowed');
      const rows = await waitForFrames(session.sessionId, (stored) => stored.length >= 2);
      assert.ok(
        rows.every((row) => !row.face_detected && row.emotion === null),
        JSON.stringify(rows),
      );
      assertNoMediaSent(suite.proxy);
    });

    it('"Not now" never opens the camera, records no frame and keeps the events', async () => {
      const { session, popup, page } = await suite.startRecording();
      await answerPrompt(popup, 'camera', 'refuse');
      await popupShows(popup, '#camera', 'not allowed');
      await page.click('#to-two');
      await waitForEvents(session.sessionId, clicked('#to-two'));
      const contexts = await suite.browser.worker.evaluate(() =>
        chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] }),
      );
      assert.equal(contexts.length, 0, 'the camera was opened although the tester said "Not now"');
      assert.deepEqual(await frameRows(session.sessionId), []);
    });
  },
);

mediaSuite(
  'Browser extension: the camera refused',
  () => Promise.resolve('deny'),
  'facial',
  (suite) => {
    it('says so in the permission tab and the popup, and keeps sending events alone', async () => {
      const { session, popup, page } = await suite.startRecording();
      const tab = await answerPrompt(popup, 'camera', 'allow');
      assert.ok(tab, 'no permission tab opened');
      await refusedInTab(tab, 'camera');
      await popupShows(popup, '#message', /goes on without it/);
      await popupShows(popup, '#camera', 'not allowed');
      await page.click('#to-two');
      await waitForEvents(session.sessionId, clicked('#to-two'));
      assert.deepEqual(await frameRows(session.sessionId), []);
    });
  },
);
