import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { asSystem } from '../../../db/doors.ts';
import type { TestApi } from '../../support/api.ts';
import { testDatabase } from '../../support/database.ts';
import { startSession, waitFor } from '../../sessions/fixtures.ts';

export interface RecordableSession {
  readonly sessionId: string;
  readonly testToken: string;
  /** The tester's own session JWT (to confirm the findings after the session). */
  readonly testerToken: string;
}

/** A fresh active session on the study, and a test token the business issued for it. */
export async function recordableSession(
  api: TestApi,
  business: string,
  jobId: string,
): Promise<RecordableSession> {
  const { sessionId, testerToken } = await startSession(api, business, jobId);
  return { sessionId, testerToken, testToken: await issueTestToken(api, business, sessionId) };
}

/** `POST /api/sessions/:id/test-token` as the business: a new token, the previous one revoked. */
export async function issueTestToken(api: TestApi, business: string, sessionId: string): Promise<string> {
  const issued = await api.request('POST', `/api/sessions/${sessionId}/test-token`, { token: business });
  assert.equal(issued.status, 201, issued.text);
  return (issued.body.data as { testToken: string }).testToken;
}

/** The session's stored events, in the order they were stored. */
export const eventRows = (sessionId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('session_events').selectAll().where('session_id', '=', sessionId).orderBy('id').execute(),
  );

export type EventRow = Awaited<ReturnType<typeof eventRows>>[number];

/** Polls the stored events until `done` holds for them (a deadline, never a fixed sleep). */
export async function waitForEvents(
  sessionId: string,
  done: (rows: EventRow[]) => boolean,
): Promise<EventRow[]> {
  let rows: EventRow[] = [];
  await waitFor(async () => done((rows = await eventRows(sessionId)))).catch(() =>
    assert.fail(`events never arrived; stored: ${JSON.stringify(rows.map(summary))}`),
  );
  return rows;
}

export const summary = (row: EventRow) => `${row.event_type} ${row.target_selector}`;

/** Whether a click on the selector is stored. */
export const clicked = (selector: string) => (rows: EventRow[]) =>
  rows.some((row) => row.event_type === 'click' && row.target_selector === selector);

/** Fills the popup's fields and presses Start, as the tester does; waits until it records. */
export async function startInPopup(popup: Page, apiBase: string, session: RecordableSession): Promise<void> {
  await popup.fill('#api-base', apiBase);
  await popup.fill('#session-id', session.sessionId);
  await popup.fill('#test-token', session.testToken);
  await popup.click('#start');
  await popupShows(popup, '#phase', 'recording');
}

/**
 * How long a device may take to come on: its recogniser's model loads and compiles first, which a
 * loaded machine makes slow.
 */
export const MODEL_LOAD_MS = 60_000;

/**
 * Waits until the popup's element reads the text; a device coming on waits for its model to load
 * (`MODEL_LOAD_MS`).
 */
export async function popupShows(
  popup: Page,
  selector: string,
  text: string | RegExp,
  timeout = 20_000,
): Promise<void> {
  await popup
    .locator(selector, { hasText: text })
    .waitFor({ timeout })
    .catch(async () =>
      assert.fail(`popup ${selector} shows "${await popup.textContent(selector)}", expected ${String(text)}`),
    );
}
