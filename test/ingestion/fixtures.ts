import { sql } from 'kysely';
import { issueTestToken } from '../../commands/sessions/test-token-delivery.ts';
import { asSystem, type Claims } from '../../db/doors.ts';
import type { SessionStatus } from '../../lib/domain.ts';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';
import { createBusiness, createTester, type BusinessFixture } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

export interface RecordingSession {
  readonly sessionId: string;
  readonly business: BusinessFixture;
  readonly tester: Claims;
  /** The tester's session JWT. */
  readonly jwt: string;
  /** The session's X-Test-Token. */
  readonly testToken: string;
}

/**
 * A running session of a fresh study and tester, inserted through the system door (session
 * creation belongs to the session workflow), with the tester's JWT and the session's test token.
 */
export async function recordingSession(options: { tasks?: number } = {}): Promise<RecordingSession> {
  const business = await createBusiness();
  const studyId = await insertStudy(business.organizationId);
  // A study's tasks come before its sessions: they no longer change once it has one.
  if (options.tasks) {
    await asSystem(testDatabase(), (tx) =>
      sql`insert into study_tasks (study_id, position, title, description, success_criteria)
          select ${studyId}, p, 'Task ' || p, 'Do ' || p, 'Secret ' || p
          from generate_series(1, ${options.tasks}) p`.execute(tx),
    );
  }
  const tester = await createTester();
  const { sessionId, token } = await asSystem(testDatabase(), async (tx) => {
    const { rows } = await sql<{ id: string }>`
      insert into sessions (study_id, organization_id, tester_id)
      values (${studyId}, ${business.organizationId}, ${tester.sub}) returning id`.execute(tx);
    const id = rows[0]!.id;
    return { sessionId: id, token: (await issueTestToken(tx, id, new Date())).token };
  });
  return { sessionId, business, tester, jwt: await sessionToken(tester), testToken: token };
}

/** Moves the session along the state machine of 0005 (for example to `completed`). */
export async function setSessionStatus(sessionId: string, status: SessionStatus): Promise<void> {
  await asSystem(testDatabase(), (tx) =>
    sql`update sessions set status = ${status},
          completed_at = case when ${status} = 'completed' then now() else completed_at end
        where id = ${sessionId}`.execute(tx),
  );
}

/** Reads a signal table of one session through the system door. */
export async function storedRows<T>(
  table: 'session_events' | 'facial_snapshots' | 'voice_segments',
  sessionId: string,
): Promise<T[]> {
  const { rows } = await asSystem(testDatabase(), (tx) =>
    sql<T>`select * from ${sql.table(table)} where session_id = ${sessionId} order by id`.execute(tx),
  );
  return rows;
}

export const at = (second: number): string => new Date(Date.UTC(2026, 0, 15, 10, 0, second)).toISOString();

export function event(overrides: Record<string, unknown> = {}, second = 0): Record<string, unknown> {
  return {
    eventType: 'click',
    targetSelector: '#checkout > button.pay',
    timestamp: at(second),
    x: 120,
    y: 340,
    viewport: { width: 1280, height: 800 },
    ...overrides,
  };
}

export function frame(frameIndex: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    frameIndex,
    timestamp: at(frameIndex),
    emotions: { neutral: 0.6, confusion: 0.3, happy: 0.1 },
    attentionScore: 0.8,
    gazeX: 0.5,
    gazeY: 0.4,
    ...overrides,
  };
}

export function segment(
  segmentIndex: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    segmentIndex,
    startTime: at(segmentIndex * 5),
    endTime: at(segmentIndex * 5 + 4),
    transcript: 'I am looking for the checkout button',
    sentiment: 'neutral',
    sentimentScore: 0,
    hesitationCount: 1,
    wordsPerMinute: 130,
    ...overrides,
  };
}
