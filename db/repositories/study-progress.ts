import { sql } from 'kysely';
import type { Tx } from '../doors.ts';

export interface StudyProgress {
  /** Proposals by status. */
  readonly proposals: { readonly pending: number; readonly accepted: number; readonly skipped: number };
  /** Outreach messages: waiting for review, approved and not yet sent, sent as offers, rejected. */
  readonly outreach: {
    readonly pending: number;
    readonly approved: number;
    readonly sent: number;
    readonly rejected: number;
  };
  /** Sessions not cancelled, and those confirmed by their tester. */
  readonly sessions: { readonly live: number; readonly confirmed: number };
}

/** How far a study's recruitment has come, as the caller may see it (row-level security). */
export async function studyProgress(tx: Tx, studyId: string): Promise<StudyProgress> {
  const { rows } = await sql<{
    proposals_pending: string;
    proposals_accepted: string;
    proposals_skipped: string;
    outreach_pending: string;
    outreach_approved: string;
    outreach_sent: string;
    outreach_rejected: string;
    sessions_live: string;
    sessions_confirmed: string;
  }>`
    select
      (select count(*) from proposals where study_id = ${studyId} and status = 'pending') as proposals_pending,
      (select count(*) from proposals where study_id = ${studyId} and status = 'accepted') as proposals_accepted,
      (select count(*) from proposals where study_id = ${studyId} and status = 'skipped') as proposals_skipped,
      (select count(*) from outreach_messages where study_id = ${studyId} and status = 'pending') as outreach_pending,
      (select count(*) from outreach_messages
        where study_id = ${studyId} and status = 'approved' and sent_at is null) as outreach_approved,
      (select count(*) from outreach_messages where study_id = ${studyId} and sent_at is not null) as outreach_sent,
      (select count(*) from outreach_messages where study_id = ${studyId} and status = 'rejected') as outreach_rejected,
      (select count(*) from sessions where study_id = ${studyId} and status <> 'cancelled') as sessions_live,
      (select count(*) from sessions where study_id = ${studyId} and status = 'confirmed') as sessions_confirmed
  `.execute(tx);
  const row = rows[0]!;
  return {
    proposals: {
      pending: Number(row.proposals_pending),
      accepted: Number(row.proposals_accepted),
      skipped: Number(row.proposals_skipped),
    },
    outreach: {
      pending: Number(row.outreach_pending),
      approved: Number(row.outreach_approved),
      sent: Number(row.outreach_sent),
      rejected: Number(row.outreach_rejected),
    },
    sessions: { live: Number(row.sessions_live), confirmed: Number(row.sessions_confirmed) },
  };
}

/** A study's sessions, newest first (the study page's list). */
export function sessionsOfStudy(tx: Tx, studyId: string, limit: number) {
  return (
    tx
      .selectFrom('sessions')
      .select(['id', 'status', 'started_at', 'completed_at', 'tester_id', 'business_rating'])
      // Its tester report (Agent 3), once written: one per session.
      .select((eb) =>
        eb
          .selectFrom('reports')
          .select('reports.id')
          .whereRef('reports.session_id', '=', 'sessions.id')
          .as('report_id'),
      )
      .where('study_id', '=', studyId)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute()
  );
}

/** An outreach message's study and text as the caller may see it (row-level security). */
export function outreachTextOf(tx: Tx, id: string) {
  return tx
    .selectFrom('outreach_messages')
    .select(['study_id', 'body', 'subject'])
    .where('id', '=', id)
    .executeTakeFirst();
}
