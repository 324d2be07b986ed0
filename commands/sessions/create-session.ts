import type { Db } from '../../db/connection.ts';
import { asSystem, asUser } from '../../db/doors.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import { findStudy } from '../../db/repositories/studies.ts';
import { liveSessionOf, testerStanding, type SessionRow } from '../../db/repositories/sessions.ts';
import { openSession, type SessionRefusal } from './open-session.ts';
import type { Principal } from '../principal.ts';
import { deliverTestToken } from './test-token-delivery.ts';
import { ApiError, conflict, invalid, notFound } from '../../lib/errors.ts';
import { ensureStudyWorkflow } from '../studies/create-study.ts';
import { ensureSessionWorkflow as startRecordedSession } from '../../clients/temporal.ts';
import { ensureSessionWorkflow } from './session-workflow.ts';
import type { CreateSessionInput } from './session.schema.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

const UNIQUE_VIOLATION = '23505';
const TESTER_HAS_SESSION = 'The tester already has a session on this study';

/**
 * A tester already in the study, or a study with no place left, answers 409 (the session core's
 * refusals); the tester's own session is named first, so a retried create says what it finds.
 */
function refusalConflict(refusal: SessionRefusal, testerCount: number): ApiError {
  return refusal.testerHasSession
    ? conflict(TESTER_HAS_SESSION)
    : conflict(`The study has no free place: all ${testerCount} of its sessions are taken`);
}

/**
 * Creates a session for an eligible tester on an active study, with its test token, starts its
 * workflow and queues the token to the tester through the messaging channel (never in the HTTP
 * answer). Returns the token to the caller in code only. The row is committed before the workflow
 * starts; if that start fails, the retry (409: the session exists) and every later change of the
 * session start it (`ensureSessionWorkflow`). The study's workflow is made sure of first, so a
 * study stored without one (the seeded demo study) is running before its sessions report to it.
 */
export async function createSession(
  deps: CommandContext,
  principal: Principal,
  input: CreateSessionInput,
): Promise<{ session: SessionRow; testToken: string }> {
  await requireEligibleTester(deps.db, input.testerId);
  await ensureWorkflowOfActiveStudy(deps, principal, input.jobId);
  const now = deps.now();
  const inserting = asUser(deps.db, principal.claims, async (tx) => {
    const record = await findStudy(tx, input.jobId);
    if (!record) throw notFound('Study');
    if (record.study.status !== 'active') {
      throw conflict(`Study must be active to take sessions (it is ${record.study.status})`);
    }
    const opened = await openSession(tx, {
      record,
      testerId: input.testerId,
      variant: input.variant,
      at: now,
    });
    if (!opened.opened) throw refusalConflict(opened, record.study.tester_count);
    return {
      session: opened.session,
      testToken: opened.token.token,
      maxDurationMinutes: record.study.max_duration_minutes,
    };
  });
  const { session, testToken, maxDurationMinutes } = await inserting.catch(async (error: unknown) => {
    // The assignment lock makes a unique violation unreachable; the index stays the last word.
    const refused =
      (error as { code?: string }).code === UNIQUE_VIOLATION ? conflict(TESTER_HAS_SESSION) : error;
    if (refused instanceof ApiError && refused.code === 'state_conflict') {
      await ensureWorkflowOfExisting(deps, principal, input);
    }
    throw refused;
  });

  await startRecordedSession(deps.temporal, serviceTaskQueue(deps), {
    id: session.id,
    study_id: session.study_id,
    status: 'active',
    started_at: session.started_at,
    max_duration_minutes: maxDurationMinutes,
  });
  await deliverTestToken(deps, session.id, testToken);
  return { session, testToken };
}

/**
 * The study's workflow, started from its recorded status when it has none, before anything is
 * committed: a failed start leaves no session behind. Only an active study takes sessions; any
 * other answer (404, 409) is the insert's to give.
 */
async function ensureWorkflowOfActiveStudy(
  deps: CommandContext,
  principal: Principal,
  studyId: string,
): Promise<void> {
  const study = await asUser(deps.db, principal.claims, (tx) => studyStatusOf(tx, studyId));
  if (study?.status === 'active') await ensureStudyWorkflow(deps, study);
}

/** A retry after a failed workflow start finds the session committed: its workflow starts now. */
async function ensureWorkflowOfExisting(
  deps: CommandContext,
  principal: Principal,
  input: CreateSessionInput,
): Promise<void> {
  const existing = await asUser(deps.db, principal.claims, (tx) =>
    liveSessionOf(tx, input.jobId, input.testerId),
  );
  if (existing) await ensureSessionWorkflow(deps, principal, existing.id);
}

/** Businesses cannot read tester profiles (RLS), so eligibility is asked through the system door. */
async function requireEligibleTester(db: Db, testerId: string): Promise<void> {
  const standing = await asSystem(db, (tx) => testerStanding(tx, testerId));
  // An id that names no tester is not found, as any unknown id (docs/decisions/api-conventions.md).
  if (!standing || standing.role !== 'tester') throw notFound('Tester');
  if (standing.profile_status !== 'active') {
    throw invalid(`testerId: The tester is not eligible (profile ${standing.profile_status ?? 'missing'})`);
  }
}
