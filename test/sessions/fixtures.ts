import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { issueTestToken } from '../../api/auth/test-tokens.ts';
import { asSystem, type Claims } from '../../db/doors.ts';
import { paymentConfirmedSignal, studyWorkflowId } from '../../workflows/study.ts';
import type { TestApi } from '../support/api.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { validStudyBody } from '../support/study-body.ts';
import { temporalEnvironment } from '../support/temporal.ts';

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

/** A study created through the API and made active by the payment signal, as the webhook sends it. */
export async function activeStudy(
  api: TestApi,
  token: string,
  body: Record<string, unknown> = validStudyBody(),
) {
  const created = await api.request('POST', '/api/jobs', { body, token });
  assert.equal(created.status, 201, created.text);
  const jobId = (created.body.data as { jobId: string }).jobId;
  const env = await temporalEnvironment();
  await env.client.workflow.getHandle(studyWorkflowId(jobId)).signal(paymentConfirmedSignal);
  await waitFor(async () => {
    const read = await api.request('GET', `/api/jobs/${jobId}`, { token });
    return (read.body.data as { status: string }).status === 'active';
  });
  return jobId;
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

export async function waitFor(check: () => Promise<boolean>, attempts = 400): Promise<void> {
  for (let i = 0; i < attempts; i += 1) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail('condition not reached');
}

export async function waitForSessionStatus(api: TestApi, sessionId: string, token: string, status: string) {
  let last = '';
  await waitFor(async () => {
    last = ((await api.request('GET', `/api/sessions/${sessionId}`, { token })).body.data as SessionRead)
      .status;
    return last === status;
  }).catch(() => assert.fail(`session stayed ${last}, expected ${status}`));
}

const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * 1000);

/**
 * Signals with two barriers a reader can check by hand: four clicks on `#pay` within 1.5 s with a
 * negative voice segment beside them, and an error on `#card-number`. Plus a frowning frame with
 * no face detected and a PII segment, which analysis must ignore.
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
          started_at: at(base, 200),
          ended_at: at(base, 205),
          transcript: 'my email is jane@example.com and this is awful',
          sentiment: 'negative',
          sentiment_score: -0.9,
          contains_pii: true,
        },
      ])
      .execute();
  });
}
