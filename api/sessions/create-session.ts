import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection.ts';
import { asSystem, asUser, type Tx } from '../../db/doors.ts';
import { findStudy, type StudyRecord } from '../../db/repositories/studies.ts';
import {
  insertSession,
  lockStudyForAssignment,
  testerStanding,
  variantCounts,
  type SessionRow,
} from '../../db/repositories/sessions.ts';
import { sessionWorkflow, sessionWorkflowId } from '../../workflows/session.ts';
import type { Principal } from '../auth/principal.ts';
import { issueTestToken } from '../auth/test-tokens.ts';
import { conflict, invalid, notFound } from '../http/errors.ts';
import { assignVariant } from './assign-variant.ts';
import type { CreateSessionInput } from './sessions.schema.ts';

export interface SessionCommandDependencies {
  readonly db: Db;
  readonly temporal: Client;
  readonly taskQueue: string;
  readonly now: () => Date;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Creates a session for an eligible tester on an active study, with its test token (delivered to
 * the tester through the messaging channel, never in this answer), then starts its workflow.
 * Returns the token to the caller in code only, for delivery.
 */
export async function createSession(
  deps: SessionCommandDependencies,
  principal: Principal,
  input: CreateSessionInput,
): Promise<{ session: SessionRow; testToken: string }> {
  await requireEligibleTester(deps.db, input.testerId);
  const now = deps.now();
  const { session, testToken, maxDurationMinutes } = await asUser(deps.db, principal.claims, async (tx) => {
    const record = await findStudy(tx, input.jobId);
    if (!record) throw notFound('Study');
    if (record.study.status !== 'active') {
      throw conflict(`Study must be active to take sessions (it is ${record.study.status})`);
    }
    await lockStudyForAssignment(tx, record.study.id);
    const variant = await variantFor(tx, record, input.variant);
    const session = await insertSession(tx, {
      study_id: record.study.id,
      organization_id: record.study.organization_id,
      tester_id: input.testerId,
      variant,
      started_at: now,
      created_at: now,
      updated_at: now,
    }).catch((error: unknown) => {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
        throw conflict('The tester already has a session on this study');
      }
      throw error;
    });
    const { token } = await issueTestToken(tx, session.id, now);
    return { session, testToken: token, maxDurationMinutes: record.study.max_duration_minutes };
  });

  await deps.temporal.workflow.start(sessionWorkflow, {
    workflowId: sessionWorkflowId(session.id),
    taskQueue: deps.taskQueue,
    args: [
      {
        sessionId: session.id,
        jobId: session.study_id,
        startedAt: session.started_at.toISOString(),
        maxDurationMinutes,
      },
    ],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return { session, testToken };
}

/** Businesses cannot read tester profiles (RLS), so eligibility is asked through the system door. */
async function requireEligibleTester(db: Db, testerId: string): Promise<void> {
  const standing = await asSystem(db, (tx) => testerStanding(tx, testerId));
  if (!standing || standing.role !== 'tester') throw invalid('testerId: No tester with this id');
  if (standing.profile_status !== 'active') {
    throw invalid(`testerId: The tester is not eligible (profile ${standing.profile_status ?? 'missing'})`);
  }
}

async function variantFor(tx: Tx, { study, variants }: StudyRecord, requested: string | undefined) {
  if (!variants.length) {
    if (requested !== undefined) throw invalid('variant: This study runs a single variant');
    return null;
  }
  const labels = variants.map((variant) => variant.label);
  if (requested !== undefined) {
    if (!labels.includes(requested)) throw invalid(`variant: Must be one of ${labels.join(', ')}`);
    return requested;
  }
  const shares = variants.map((variant) => ({ label: variant.label, share: Number(variant.split_ratio) }));
  return assignVariant(shares, await variantCounts(tx, study.id));
}
