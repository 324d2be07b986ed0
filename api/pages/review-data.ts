import type { Db } from '../../db/connection.ts';
import { asUser } from '../../db/doors.ts';
import { listNotes, type NoteRow } from '../../db/repositories/session-notes.ts';
import { findSession, sessionForReview, type SessionRow } from '../../db/repositories/sessions.ts';
import type { SessionPrincipal } from '../auth/principal.ts';

export interface ReviewData {
  readonly session: SessionRow;
  readonly studyTitle: string;
  /** Agent 2's findings and patterns, in the order they were noted. */
  readonly findings: readonly NoteRow[];
}

/**
 * What the review page shows: the session and every AI finding of it, for the session's tester
 * only. Anyone else gets nothing (a 404 page), whether row-level security hides the session from
 * them or they may see it otherwise (its business, an admin).
 */
export async function loadReview(
  db: Db,
  principal: SessionPrincipal,
  sessionId: string,
): Promise<ReviewData | undefined> {
  return asUser(db, principal.claims, async (tx) => {
    const session = await findSession(tx, sessionId);
    if (!session || session.tester_id !== principal.claims.sub) return undefined;
    const review = await sessionForReview(tx, sessionId);
    const notes = await listNotes(tx, sessionId);
    const findings = notes
      .filter((note) => note.author_kind === 'agent')
      .sort((a, b) => momentOf(a).getTime() - momentOf(b).getTime());
    return { session, studyTitle: review?.study_title ?? '', findings };
  });
}

/** When in the session a finding happened: its noted time, or when it was written. */
export const momentOf = (note: NoteRow): Date => note.noted_at ?? note.created_at;

/** "3:07 into the session" from the session's start (minutes:seconds, hours when needed). */
export function sessionOffset(start: Date, at: Date): string {
  const total = Math.max(0, Math.round((at.getTime() - start.getTime()) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
