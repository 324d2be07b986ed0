import { z } from 'zod';
import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { listNotes, type NoteRow } from '../../../db/repositories/session-notes.ts';
import { hasRecording } from '../../../db/repositories/recordings.ts';
import { taskNamesOf } from '../../../db/repositories/task-attempts.ts';
import { findSession, sessionForReview, type SessionRow } from '../../../db/repositories/sessions.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import { notFound } from '../../../lib/errors.ts';
import { formatPath } from '../../../lib/validation/validate.ts';
import type { FieldErrors } from '../shared/form-fields.tsx';
import { blankless } from '../shared/form-input.ts';
import type { SignedInRequest } from '../shared/page-routes.ts';

const params = z.object({ id: z.uuid() });

export const decisionField = (note: NoteRow) => `decision-${note.id}`;
export const annotationField = (note: NoteRow) => `annotation-${note.id}`;

export interface ReviewData {
  readonly session: SessionRow;
  readonly studyTitle: string;
  /** Agent 2's findings and patterns, in the order they were noted. */
  readonly findings: readonly NoteRow[];
  /** "Task 2: Pay" by study task id: the task each finding happened in. */
  readonly taskNames: ReadonlyMap<string, string>;
  /** Whether the session has a screen recording: each finding can be watched before deciding. */
  readonly recorded: boolean;
}

/**
 * What the review page shows: the session and every AI finding of it, for the session's tester
 * only. Anyone else gets nothing (a 404 page), whether row-level security hides the session from
 * them or they may see it otherwise (its business, an admin).
 */
async function loadReview(
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
    const taskNames = await taskNamesOf(tx, session.study_id);
    const recorded = await hasRecording(tx, sessionId);
    return { session, studyTitle: review?.study_title ?? '', findings, taskNames, recorded };
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

/** The review of the page's session, or the 404 page. */
export async function reviewOf(db: Db, request: SignedInRequest): Promise<ReviewData> {
  const id = params.safeParse(request.ctx.params);
  const review = id.success ? await loadReview(db, request.principal, id.data.id) : undefined;
  if (!review) throw notFound('Session');
  return review;
}

/** The form as `POST /api/sessions/:id/confirm` takes it: one decision per finding, the rating, the comment. */
export function confirmInput(review: ReviewData, form: Readonly<Record<string, string>>) {
  const rating = form.rating?.trim();
  return {
    rating: rating && /^\d{1,2}$/.test(rating) ? Number(rating) : rating || undefined,
    comment: blankless(form.comment ?? ''),
    notes: review.findings.map((note) => ({
      noteId: note.id,
      decision: form[decisionField(note)] ?? 'confirmed',
      annotation: blankless(form[annotationField(note)] ?? ''),
    })),
  };
}

/** The schema's paths (`notes[2].annotation`) as the form's field names. */
export function fieldErrorsOf(review: ReviewData, errors: FieldErrors): FieldErrors {
  const byPath: Record<string, string> = {};
  review.findings.forEach((note, index) => {
    byPath[formatPath(['notes', index, 'decision'])] = decisionField(note);
    byPath[formatPath(['notes', index, 'annotation'])] = annotationField(note);
  });
  return Object.fromEntries(Object.entries(errors).map(([path, message]) => [byPath[path] ?? path, message]));
}
