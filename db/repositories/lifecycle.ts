import type { Tx } from '../doors.ts';
import type { SessionStatus, StudyStatus } from '../../lib/domain.ts';

/** The statuses a study's workflow runs in; an archived study's has ended. */
export const LIVE_STUDY_STATUSES = [
  'draft',
  'active',
  'paused',
  'completed',
] as const satisfies readonly StudyStatus[];
/** The statuses a session's workflow starts from: every later one is reached through it. */
export const STARTABLE_SESSION_STATUSES = ['active', 'paused'] as const;

export type LiveStudyStatus = (typeof LIVE_STUDY_STATUSES)[number];
export type StartableSessionStatus = (typeof STARTABLE_SESSION_STATUSES)[number];

export const isLiveStudyStatus = (status: StudyStatus): status is LiveStudyStatus =>
  (LIVE_STUDY_STATUSES as readonly StudyStatus[]).includes(status);

export const isStartableSessionStatus = (status: SessionStatus): status is StartableSessionStatus =>
  (STARTABLE_SESSION_STATUSES as readonly SessionStatus[]).includes(status);

export interface RecordedStudy {
  readonly id: string;
  readonly status: StudyStatus;
}

export interface RecordedSession {
  readonly id: string;
  readonly study_id: string;
  readonly status: StartableSessionStatus;
  readonly started_at: Date;
  readonly due_at?: Date | null;
  readonly max_duration_minutes: number;
}

/** The study's id and recorded status, without its tasks and variants. */
export function studyStatusOf(tx: Tx, id: string): Promise<RecordedStudy | undefined> {
  return tx.selectFrom('studies').select(['id', 'status']).where('id', '=', id).executeTakeFirst();
}

/** Live studies created before `createdBefore` whose workflow nobody has looked for yet, oldest first. */
export function studiesWithUnseenWorkflow(
  tx: Tx,
  createdBefore: Date,
  limit: number,
): Promise<RecordedStudy[]> {
  return tx
    .selectFrom('studies')
    .select(['id', 'status'])
    .where('workflow_seen_at', 'is', null)
    .where('status', 'in', LIVE_STUDY_STATUSES)
    .where('created_at', '<', createdBefore)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** A session with its study's time limit: what its workflow starts from. */
function recordedSessions(tx: Tx) {
  return tx
    .selectFrom('sessions')
    .innerJoin('studies', 'studies.id', 'sessions.study_id')
    .select([
      'sessions.id as id',
      'sessions.study_id as study_id',
      'sessions.status as status',
      'sessions.started_at as started_at',
      'sessions.due_at as due_at',
      'studies.max_duration_minutes as max_duration_minutes',
    ]);
}

const startable = <R extends { status: SessionStatus }>(row: R): row is R & RecordedSession =>
  isStartableSessionStatus(row.status);

/** The session as its workflow starts from, when it is active or paused (every later status is reached through the workflow). */
export async function startableSessionOf(tx: Tx, sessionId: string): Promise<RecordedSession | undefined> {
  const row = await recordedSessions(tx).where('sessions.id', '=', sessionId).executeTakeFirst();
  return row && startable(row) ? row : undefined;
}

/** Active or paused sessions created before `createdBefore` whose workflow nobody has looked for yet. */
export async function sessionsWithUnseenWorkflow(
  tx: Tx,
  createdBefore: Date,
  limit: number,
): Promise<RecordedSession[]> {
  const rows = await recordedSessions(tx)
    .where('sessions.workflow_seen_at', 'is', null)
    .where('sessions.status', 'in', STARTABLE_SESSION_STATUSES)
    .where('sessions.created_at', '<', createdBefore)
    .orderBy('sessions.created_at')
    .limit(limit)
    .execute();
  return rows.filter(startable);
}

/** Marks the studies' workflows as looked for (found, or started because there was none). */
export async function markStudyWorkflowsSeen(tx: Tx, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length)
    await tx.updateTable('studies').set({ workflow_seen_at: at }).where('id', 'in', ids).execute();
}

/** Marks the sessions' workflows as looked for (found, or started because there was none). */
export async function markSessionWorkflowsSeen(tx: Tx, ids: readonly string[], at: Date): Promise<void> {
  if (ids.length)
    await tx.updateTable('sessions').set({ workflow_seen_at: at }).where('id', 'in', ids).execute();
}
