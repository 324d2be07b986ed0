import type { Client } from '@temporalio/client';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { issueTestToken } from '../../commands/sessions/test-token-delivery.ts';
import { asSystem, type Claims } from '../../db/doors.ts';
import type { AgentKind } from '../../lib/domain.ts';
import { paymentConfirmedSignal, studyWorkflowId } from '../../workflows/messages/study.ts';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startTestApi, type TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment, timeSkippingEnvironment } from '../support/temporal.ts';
import { sessionToken } from '../support/tokens.ts';

export interface SessionRead {
  sessionId: string;
  jobId: string;
  testerId: string;
  variant: string | null;
  status: string;
  startedAt: string;
  completedAt: string | null;
  durationSeconds: number | null;
}

export interface Note {
  noteId: string;
  content: string;
  authorKind: string;
  authorId: string;
  severity: string | null;
  wcagCriterion: string | null;
  confirmed: boolean;
  decision: string | null;
}

export interface ReportJob {
  reportJobId: string;
  sessionId: string;
  status: string;
  estimatedCompletionSeconds: number;
  reportId: string | null;
  reportFormat: string;
  includeScreenshots: boolean;
  reportUrl: string | null;
}

export interface TesterSession {
  readonly sessionId: string;
  readonly tester: Claims;
  /** The tester's session JWT. */
  readonly testerToken: string;
}

/** An admin's JWT (admins need no row for the API: the role claim decides). */
export const adminToken = () => sessionToken({ sub: randomUUID(), role: 'admin', organization_id: null });

/** A session created through the API for a fresh eligible tester. */
export async function startSession(api: TestApi, business: string, jobId: string): Promise<TesterSession> {
  const tester = await eligibleTester();
  const created = await api.request('POST', '/api/sessions', {
    body: { jobId, testerId: tester.sub },
    token: business,
  });
  assert.equal(created.status, 201, created.text);
  const { sessionId } = created.body.data as { sessionId: string };
  return { sessionId, tester, testerToken: await sessionToken(tester) };
}

/** A session with `recordStruggle`'s signals, completed and analysed by Agent 2. */
export async function analyzedSession(api: TestApi, business: string, jobId: string): Promise<TesterSession> {
  const session = await startSession(api, business, jobId);
  await recordStruggle(session.sessionId);
  const done = await api.request('POST', `/api/sessions/${session.sessionId}/complete`, {
    body: {},
    token: business,
  });
  assert.equal(done.status, 200, done.text);
  await waitForSessionStatus(api, session.sessionId, business, 'analyzed');
  return session;
}

/**
 * An analyzed session whose tester did the study's two tasks (validStudyBody): "Find a product",
 * completed with ease 6 around the rage clicks of `recordStruggle`, then "Pay", given up with ease
 * 2 around its error. The session began ten minutes ago, so every moment is in its past.
 */
export async function analyzedSessionWithTasks(
  api: TestApi,
  business: string,
  jobId: string,
): Promise<TesterSession> {
  const session = await startSession(api, business, jobId);
  await asSystem(testDatabase(), (tx) =>
    tx
      .updateTable('sessions')
      .set({ started_at: new Date(Date.now() - 600_000) })
      .where('id', '=', session.sessionId)
      .execute(),
  );
  const base = new Date(Date.now() - 300_000);
  const at = (seconds: number) => new Date(base.getTime() + seconds * 1000).toISOString();
  // Rage clicks on #pay at 0-1.5 s, an error on #card-number at 60 s.
  await recordStruggle(session.sessionId, base);
  const headers = { 'X-Test-Token': await testTokenFor(session.sessionId) };
  for (const task of [
    { order: 1, state: 'started', at: at(-10) },
    { order: 1, state: 'completed', at: at(30), ease: 6 },
    { order: 2, state: 'started', at: at(50) },
    {
      order: 2,
      state: 'abandoned',
      at: at(90),
      ease: 2,
      reason: 'The card was refused, my number is 07700 900123',
    },
  ]) {
    const response = await api.request('PATCH', `/api/sessions/${session.sessionId}`, {
      body: { task },
      headers,
    });
    assert.equal(response.status, 200, response.text);
  }
  const done = await api.request('PATCH', `/api/sessions/${session.sessionId}`, {
    body: { status: 'completed' },
    headers,
  });
  assert.equal(done.status, 200, done.text);
  await waitForSessionStatus(api, session.sessionId, business, 'analyzed');
  return session;
}

/** An agent job as stored. */
export const agentJob = (id: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('agent_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  );

/** A session's agent jobs of one kind, oldest first. */
export const agentJobsOf = (sessionId: string, kind: AgentKind) =>
  asSystem(testDatabase(), (tx) =>
    tx
      .selectFrom('agent_jobs')
      .selectAll()
      .where('session_id', '=', sessionId)
      .where('kind', '=', kind)
      .orderBy('queued_at')
      .execute(),
  );

/** The session's notes as the caller reads them. */
export async function readNotes(api: TestApi, sessionId: string, token: string): Promise<Note[]> {
  const response = await api.request('GET', `/api/sessions/${sessionId}/notes`, { token });
  assert.equal(response.status, 200, response.text);
  return (response.body.data as { notes: Note[] }).notes;
}

/** POST /api/reports until Agent 3's job is complete (it runs in the workflow after confirmation). */
export async function completedReportJob(
  api: TestApi,
  sessionId: string,
  token: string,
  options: Record<string, unknown> = {},
): Promise<ReportJob> {
  let job: ReportJob | undefined;
  await waitFor(async () => {
    const response = await api.request('POST', '/api/reports', { body: { sessionId, ...options }, token });
    assert.equal(response.status, 202, response.text);
    job = response.body.data as ReportJob;
    return job.status === 'complete';
  });
  return job!;
}

/** A study created through the API and made active by the payment signal, as the webhook sends it. */
export async function activeStudy(
  api: TestApi,
  token: string,
  body: Record<string, unknown> = validStudyBody(),
  /** The Temporal server's client when the API runs on another than the suite's. */
  client?: Client,
) {
  const created = await api.request('POST', '/api/jobs', { body, token });
  assert.equal(created.status, 201, created.text);
  const jobId = (created.body.data as { jobId: string }).jobId;
  const temporal = client ?? (await temporalEnvironment()).client;
  await temporal.workflow.getHandle(studyWorkflowId(jobId)).signal(paymentConfirmedSignal);
  await waitFor(async () => {
    const read = await api.request('GET', `/api/jobs/${jobId}`, { token });
    return (read.body.data as { status: string }).status === 'active';
  });
  return jobId;
}

/** A pro business and its active study taking `testerCount` testers (GB, desktop). */
export async function businessWithStudy(
  api: TestApi,
  testerCount = 10,
): Promise<{ business: string; jobId: string }> {
  const business = await sessionToken((await createBusiness('pro')).claims);
  const jobId = await activeStudy(api, business, {
    ...validStudyBody(),
    targeting: { countries: ['GB'], devices: ['desktop'], testerCount },
  });
  return { business, jobId };
}

/** A started API (stop it after the suite) and a business with an active study on it. */
export async function apiWithStudy(): Promise<{ api: TestApi; business: string; jobId: string }> {
  const api = await startTestApi();
  return { api, ...(await businessWithStudy(api)) };
}

/** A tester whose profile an admin has made active (eligible for sessions). */
export async function eligibleTester(status: 'active' | 'pending' | 'suspended' = 'active'): Promise<Claims> {
  const tester = await createTester();
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({ user_id: tester.sub, country: 'GB', devices: ['desktop'], status })
      .execute(),
  );
  return tester;
}

/** A fresh test token for the session, as the messaging channel would deliver it. */
export async function testTokenFor(sessionId: string): Promise<string> {
  const { token } = await asSystem(testDatabase(), (tx) => issueTestToken(tx, sessionId, new Date()));
  return token;
}

/**
 * Mocha hooks for a describe block on the time-skipping test server (each block owns one): the
 * API and the server, handed to `use` once both run, torn down after the block.
 */
export function onTimeSkippingServer(use: (suite: { api: TestApi; env: TestWorkflowEnvironment }) => void) {
  let suite: { api: TestApi; env: TestWorkflowEnvironment } | undefined;
  before(async function () {
    this.timeout(120_000);
    suite = { api: await startTestApi(), env: await timeSkippingEnvironment() };
    use(suite);
  });
  after(async () => {
    await suite?.api.stop();
    await suite?.env.teardown();
  });
}

export async function waitFor(check: () => Promise<boolean>, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail('condition not reached');
}

/** GETs `path` (200 each time) until the job it reads has left `queued`, and returns that read. */
export async function pollJob<T extends { status: string }>(
  api: TestApi,
  path: string,
  token: string,
): Promise<T> {
  let job: T | undefined;
  await waitFor(async () => {
    const read = await api.request('GET', path, { token });
    assert.equal(read.status, 200, read.text);
    job = read.body.data as T;
    return job.status !== 'queued';
  });
  return job!;
}

/**
 * GETs the session until it has `status`. A 503 is read as "not yet": the API answers it, by
 * design, while its database connections are being replaced (test/failure); anything else but 200
 * fails at once.
 */
export async function waitForSessionStatus(api: TestApi, sessionId: string, token: string, status: string) {
  let last = 'unread';
  await waitFor(async () => {
    const read = await api.request('GET', `/api/sessions/${sessionId}`, { token });
    if (read.status === 503) return false;
    assert.equal(read.status, 200, read.text);
    last = (read.body.data as SessionRead).status;
    return last === status;
  }).catch((error: unknown) =>
    assert.fail(
      `session stayed ${last}, expected ${status} (${error instanceof Error ? error.message : String(error)})`,
    ),
  );
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

/**
 * Signals with two barriers a reader can check by hand: four clicks on `#pay` within 1.5 s with
 * two negative voice segments beside them, and an error on `#card-number`. The second segment holds
 * an email address (flagged as PII): analysis reads it only once sanitised, as `[email]`. Plus a
 * frowning frame with no face detected, which analysis must ignore.
 */
export async function recordStruggle(sessionId: string, base = new Date()) {
  await asSystem(testDatabase(), async (tx) => {
    await tx
      .insertInto('session_events')
      .values([
        ...[0, 0.5, 1, 1.5].map((s) => ({
          session_id: sessionId,
          event_type: 'click' as const,
          target_selector: '#pay',
          occurred_at: at(base, s),
        })),
        {
          session_id: sessionId,
          event_type: 'error' as const,
          target_selector: '#card-number',
          occurred_at: at(base, 60),
        },
      ])
      .execute();
    await tx
      .insertInto('facial_snapshots')
      .values({
        session_id: sessionId,
        frame_index: 0,
        captured_at: at(base, 120),
        face_detected: false,
        confidences: { angry: 0.95 },
        attention_score: 0.1,
      })
      .execute();
    await tx
      .insertInto('voice_segments')
      .values([
        {
          session_id: sessionId,
          segment_index: 0,
          started_at: at(base, 2),
          ended_at: at(base, 5),
          transcript: 'why does this button not do anything',
          sentiment: 'negative',
          sentiment_score: -0.7,
        },
        {
          session_id: sessionId,
          segment_index: 1,
          started_at: at(base, 6),
          ended_at: at(base, 9),
          transcript: 'my email is jane@example.com and this is awful',
          sentiment: 'negative',
          sentiment_score: -0.9,
          contains_pii: true,
        },
      ])
      .execute();
  });
}
