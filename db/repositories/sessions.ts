import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Tx } from '../doors.ts';
import type { SessionFeedbackTable, SessionsTable } from '../schema-sessions.ts';
import { existingUserId } from './users.ts';
import { studyStatusOf, type RecordedStudy } from './lifecycle.ts';
import type { SessionStatus } from '../../lib/domain.ts';

export type SessionRow = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type SessionChange = Updateable<SessionsTable>;

export function findSession(tx: Tx, id: string): Promise<SessionRow | undefined> {
  return tx.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The session as the caller may see it, locked for a change. */
export function lockSession(tx: Tx, id: string): Promise<SessionRow | undefined> {
  return tx.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The organization's rating of a confirmed session (0033: once, its guard refuses a second). */
export function rateSessionAsBusiness(
  tx: Tx,
  id: string,
  rating: {
    readonly rating: number;
    readonly comment: string | null;
    readonly ratedBy: string;
    readonly at: Date;
  },
): Promise<SessionRow> {
  return tx
    .updateTable('sessions')
    .set({
      business_rating: rating.rating,
      business_rating_comment: rating.comment,
      business_rated_at: rating.at,
      business_rated_by: existingUserId(rating.ratedBy),
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function insertSession(tx: Tx, session: NewSession): Promise<SessionRow> {
  return tx.insertInto('sessions').values(session).returningAll().executeTakeFirstOrThrow();
}

/**
 * Serialises session creation per study for the rest of the transaction, so two concurrent
 * creates cannot both read the same variant counts.
 */
export async function lockStudyForAssignment(tx: Tx, studyId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`session-assignment:${studyId}`}, 0))`.execute(
    tx,
  );
}

/** Live (non-cancelled) sessions of a study per variant label. */
export async function variantCounts(tx: Tx, studyId: string): Promise<Map<string, number>> {
  const rows = await tx
    .selectFrom('sessions')
    .select(['variant', (eb) => eb.fn.countAll<string>().as('count')])
    .where('study_id', '=', studyId)
    .where('status', '<>', 'cancelled')
    .where('variant', 'is not', null)
    .groupBy('variant')
    .execute();
  return new Map(rows.map((row) => [row.variant!, Number(row.count)]));
}

export async function updateSession(tx: Tx, id: string, change: SessionChange): Promise<void> {
  await tx
    .updateTable('sessions')
    .set({ ...change, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
}

/**
 * Cancels a session still under way (active or paused) where no workflow runs it: its study's id
 * and status, or undefined when the session had moved on.
 */
export async function cancelLiveSession(tx: Tx, id: string, at: Date): Promise<RecordedStudy | undefined> {
  const cancelled = await tx
    .updateTable('sessions')
    .set({ status: 'cancelled', cancelled_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', 'in', ['active', 'paused'])
    .returning('study_id')
    .executeTakeFirst();
  return cancelled && studyStatusOf(tx, cancelled.study_id);
}

/** The tester's role and qualification, or undefined when no such user exists. */
export function testerStanding(
  tx: Tx,
  testerId: string,
): Promise<{ role: string; profile_status: string | null } | undefined> {
  return tx
    .selectFrom('users')
    .leftJoin('tester_profiles', 'tester_profiles.user_id', 'users.id')
    .select(['users.role as role', 'tester_profiles.status as profile_status'])
    .where('users.id', '=', testerId)
    .executeTakeFirst();
}

/** Confirmed sessions of a study against its target number of testers. */
export async function confirmedAgainstTarget(
  tx: Tx,
  studyId: string,
): Promise<{ confirmed: number; target: number }> {
  const row = await tx
    .selectFrom('studies')
    .select((eb) => [
      'tester_count',
      eb
        .selectFrom('sessions')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('sessions.study_id', '=', 'studies.id')
        .where('sessions.status', '=', 'confirmed')
        .as('confirmed'),
    ])
    .where('id', '=', studyId)
    .executeTakeFirstOrThrow();
  return { confirmed: Number(row.confirmed ?? 0), target: row.tester_count };
}

/**
 * True once every live session of the study has its notes confirmed (DESIGN.md, notes_confirmed):
 * set by a confirmation, cleared by a new session. Writes the study only when the flag changes.
 */
export async function refreshStudyNotesConfirmed(tx: Tx, studyId: string): Promise<void> {
  await sql`
    with flag as (
      select not exists (
        select 1 from sessions s where s.study_id = ${studyId} and s.status <> 'cancelled' and not s.notes_confirmed
      ) as confirmed
    )
    update studies set notes_confirmed = flag.confirmed, updated_at = now()
    from flag
    where id = ${studyId} and notes_confirmed is distinct from flag.confirmed`.execute(tx);
}

export function insertFeedback(
  tx: Tx,
  feedback: Insertable<SessionFeedbackTable>,
): Promise<Selectable<SessionFeedbackTable> | undefined> {
  return tx
    .insertInto('session_feedback')
    .values(feedback)
    .onConflict((oc) => oc.column('session_id').doNothing())
    .returningAll()
    .executeTakeFirst();
}

/**
 * Queues the confirmed session's payment at the study's flat compensation, once (a retry adds
 * nothing); returns its id, or null for a session that is not confirmed.
 */
export async function queuePayment(tx: Tx, sessionId: string): Promise<string | null> {
  await sql`
    insert into payments (organization_id, study_id, session_id, tester_id, amount, currency)
    select s.organization_id, s.study_id, s.id, s.tester_id, st.compensation_amount, st.compensation_currency
    from sessions s join studies st on st.id = s.study_id
    where s.id = ${sessionId} and s.status = 'confirmed'
    on conflict (session_id) do nothing`.execute(tx);
  const payment = await tx
    .selectFrom('payments')
    .select('id')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return payment?.id ?? null;
}

/** The live (non-cancelled) session of a tester on a study, if any. */
export function liveSessionOf(tx: Tx, studyId: string, testerId: string): Promise<SessionRow | undefined> {
  return tx
    .selectFrom('sessions')
    .selectAll()
    .where('study_id', '=', studyId)
    .where('tester_id', '=', testerId)
    .where('status', '<>', 'cancelled')
    .executeTakeFirst();
}

/** How many sessions (not cancelled) the study holds: an acceptance past its target changes nothing. */
export async function liveSessionCount(tx: Tx, studyId: string): Promise<number> {
  const row = await tx
    .selectFrom('sessions')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('study_id', '=', studyId)
    .where('status', '<>', 'cancelled')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A session's tester and study, for the confirmation request. */
export async function sessionForReview(
  tx: Tx,
  sessionId: string,
): Promise<{ tester_id: string; status: string; study_title: string } | undefined> {
  const { rows } = await sql<{ tester_id: string; status: string; study_title: string }>`
    select s.tester_id, s.status, st.title as study_title
    from sessions s join studies st on st.id = s.study_id where s.id = ${sessionId}`.execute(tx);
  return rows[0];
}

/** What the session start page shows: the session as the caller sees it, its study's title and prototype. */
export async function sessionToStart(
  tx: Tx,
  sessionId: string,
): Promise<
  | { id: string; tester_id: string; status: SessionStatus; study_title: string; prototype_url: string }
  | undefined
> {
  return tx
    .selectFrom('sessions as s')
    .innerJoin('studies as st', 'st.id', 's.study_id')
    .select(['s.id', 's.tester_id', 's.status', 'st.title as study_title', 'st.prototype_url'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
}

/** A tester's sessions with their study's title, newest first (the dashboard's list). */
export function sessionsOfTester(
  tx: Tx,
  testerId: string,
  limit: number,
): Promise<
  {
    id: string;
    status: SessionRow['status'];
    started_at: Date;
    study_title: string;
    report_id: string | null;
  }[]
> {
  return tx
    .selectFrom('sessions as s')
    .innerJoin('studies as st', 'st.id', 's.study_id')
    .select(['s.id', 's.status', 's.started_at', 'st.title as study_title'])
    .select((eb) =>
      eb.selectFrom('reports as r').select('r.id').whereRef('r.session_id', '=', 's.id').as('report_id'),
    )
    .where('s.tester_id', '=', testerId)
    .orderBy('s.started_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();
}
