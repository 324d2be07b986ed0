import { randomUUID } from 'node:crypto';
import { asSystem, type Claims } from '../../db/doors.ts';
import type { AccessNeed, AgentKind, Device, FindingSeverity } from '../../lib/domain.ts';
import { testDatabase } from '../support/database.ts';
import { createTester } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';

/** An admin with a user row (agent jobs record who requested them). */
export async function adminUserToken(): Promise<string> {
  const row = await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('users')
      .values({ email: `admin-${randomUUID()}@example.com`, role: 'admin', display_name: 'Admin' })
      .returning('id')
      .executeTakeFirstOrThrow(),
  );
  return sessionToken({ sub: row.id, role: 'admin', organization_id: null });
}

export interface ProfileInput {
  readonly country: string;
  readonly devices: Device[];
  readonly accessNeeds?: AccessNeed[];
  readonly birthYear?: number;
}

/** A tester with an active profile, as an admin would have qualified them. */
export async function profiledTester(profile: ProfileInput): Promise<Claims> {
  const tester = await createTester();
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('tester_profiles')
      .values({
        user_id: tester.sub,
        country: profile.country,
        devices: profile.devices,
        access_needs: profile.accessNeeds ?? [],
        birth_year: profile.birthYear ?? null,
        status: 'active',
      })
      .execute(),
  );
  return tester;
}

export interface ReportedFinding {
  readonly criterion: string;
  readonly severity: FindingSeverity;
  readonly flow: string;
}

/**
 * A session of the study that went through the gate (confirmed, notes confirmed), and, unless
 * `report` is false, its tester report as Agent 3 stores it.
 */
export async function confirmedSession(
  studyId: string,
  tester: Claims,
  options: { variant?: string; score?: number; findings?: ReportedFinding[]; report?: boolean } = {},
): Promise<string> {
  return asSystem(testDatabase(), async (tx) => {
    const study = await tx
      .selectFrom('studies')
      .select('organization_id')
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow();
    const at = new Date();
    const session = await tx
      .insertInto('sessions')
      .values({
        study_id: studyId,
        organization_id: study.organization_id,
        tester_id: tester.sub,
        variant: options.variant ?? null,
        status: 'confirmed',
        // Explicit: the database's now() has microseconds, a Date only milliseconds.
        started_at: new Date(at.getTime() - 60_000),
        notes_confirmed: true,
        notes_confirmed_at: at,
        completed_at: at,
        confirmed_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (options.report !== false) await addReport(studyId, session.id, tester, options, tx);
    return session.id;
  });
}

export async function addReport(
  studyId: string,
  sessionId: string,
  tester: Claims,
  options: { score?: number; findings?: ReportedFinding[] },
  tx?: Parameters<Parameters<typeof asSystem>[1]>[0],
): Promise<void> {
  const write = async (t: NonNullable<typeof tx>) => {
    const study = await t
      .selectFrom('studies')
      .select('organization_id')
      .where('id', '=', studyId)
      .executeTakeFirstOrThrow();
    const findings = (options.findings ?? []).map((f, i) => ({
      findingId: randomUUID(),
      severity: f.severity,
      title: `Barrier ${i + 1} at ${f.flow}`,
      description: 'as confirmed by the tester',
      plainEnglish: 'something got in the way',
      timestamp: new Date().toISOString(),
      affectedFlow: f.flow,
      wcag: { criterion: f.criterion, level: 'A' },
    }));
    await t
      .insertInto('reports')
      .values({
        organization_id: study.organization_id,
        study_id: studyId,
        session_id: sessionId,
        tester_id: tester.sub,
        tone_profile: 'moderate',
        overall_score: options.score ?? 80,
        content: { findings, recommendations: [], emotionalProfile: {} },
      })
      .execute();
  };
  if (tx) await write(tx);
  else await asSystem(testDatabase(), write);
}

/** The row of an agent job on the session: its kind, the session's organization and study. */
export const agentJobOn = (
  session: { id: string; organization_id: string; study_id: string },
  kind: AgentKind,
  extra: { options?: Record<string, unknown>; requested_by?: string } = {},
) => ({
  kind,
  organization_id: session.organization_id,
  study_id: session.study_id,
  session_id: session.id,
  ...extra,
});

/** A queued agent job on the session, as the API or the session workflow stores one; its id. */
export async function queuedAgentJob(
  sessionId: string,
  kind: AgentKind,
  options: Record<string, unknown> = {},
): Promise<string> {
  return asSystem(testDatabase(), async (tx) => {
    const session = await tx
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const job = await tx
      .insertInto('agent_jobs')
      .values(agentJobOn(session, kind, { options }))
      .returning('id')
      .executeTakeFirstOrThrow();
    return job.id;
  });
}

/** The queued AI work of an agent job (at most one live item, and the settled ones). */
export const queuedAiWorkOf = (agentJobId: string) =>
  asSystem(testDatabase(), (tx) =>
    tx.selectFrom('queued_ai_work').selectAll().where('agent_job_id', '=', agentJobId).execute(),
  );

/**
 * Claims a test took on items of other tests (the suite shares one database) go back to the
 * queue as they were, due at once.
 */
export async function putBack(workIds: readonly string[]): Promise<void> {
  if (!workIds.length) return;
  await asSystem(testDatabase(), (tx) =>
    tx
      .updateTable('queued_ai_work')
      .set((eb) => ({ status: 'queued', attempts: eb('attempts', '-', 1), next_attempt_at: new Date() }))
      .where('id', 'in', [...workIds])
      .where('status', '=', 'processing')
      .execute(),
  );
}

/**
 * Signals with one cross-task pattern a reader can check by hand: errors on three fields on two
 * pages (/checkout, then /address), so WCAG 3.3.1 comes up three times on two pages.
 */
export async function recordRepeatedErrors(sessionId: string, base = new Date(Date.now() - 120_000)) {
  const at = (seconds: number) => new Date(base.getTime() + seconds * 1000);
  await asSystem(testDatabase(), (tx) =>
    tx
      .insertInto('session_events')
      .values(
        (
          [
            ['navigation', '/checkout', 0],
            ['error', '#card', 20],
            ['navigation', '/address', 40],
            ['error', '#zip', 50],
            ['error', '#city', 70],
          ] as const
        ).map(([event_type, target_selector, seconds]) => ({
          session_id: sessionId,
          event_type,
          target_selector,
          occurred_at: at(seconds),
        })),
      )
      .execute(),
  );
}
