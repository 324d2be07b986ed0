import type { NoteRow } from '../../db/repositories/session-notes.ts';
import type { SessionRow } from '../../db/repositories/sessions.ts';
import type { TaskWithAttemptRow } from '../../db/repositories/task-attempts.ts';

/** The spec's create response: exactly its six fields. */
export function toCreatedSession(row: SessionRow) {
  return { ...sessionIdentity(row), createdAt: row.created_at.toISOString() };
}

/** Who and what a session is, as every answer about it begins. */
function sessionIdentity(row: SessionRow) {
  return {
    sessionId: row.id,
    jobId: row.study_id,
    testerId: row.tester_id,
    variant: row.variant,
    status: row.status,
  };
}

export function toSession(row: SessionRow, tasks: readonly TaskWithAttemptRow[]) {
  return {
    ...sessionIdentity(row),
    startedAt: row.started_at.toISOString(),
    completedAt: row.completed_at?.toISOString() ?? null,
    durationSeconds: row.duration_seconds,
    tasks: tasks.map(toTask),
  };
}

/** A task as the session's tester follows it (its success criteria are for the business). */
export function toTask(row: TaskWithAttemptRow) {
  return {
    order: row.position,
    title: row.title,
    description: row.description,
    attempt: row.started_at
      ? {
          state: row.outcome ?? ('in_progress' as const),
          startedAt: row.started_at.toISOString(),
          endedAt: row.ended_at?.toISOString() ?? null,
          timeOnTaskSeconds: row.active_ms === null ? null : Math.round(row.active_ms / 100) / 10,
          ease: row.ease,
          reason: row.reason,
        }
      : null,
  };
}

/**
 * What the gate lets a caller read of the notes, beyond row-level security (which already keeps
 * unconfirmed findings from the organization): findings the tester has not yet decided on are the
 * tester's alone to review, admins included; a rejected finding is gone from every answer.
 */
export function passesGate(note: NoteRow, session: SessionRow, callerId: string): boolean {
  if (note.author_kind === 'human') return true;
  if (note.decision === 'rejected') return false;
  return note.confirmed || session.tester_id === callerId;
}

/** Agent notes name their agent as author: they have no human author id. */
export function toNote(note: NoteRow) {
  return {
    noteId: note.id,
    content: note.content,
    timestamp: (note.noted_at ?? note.created_at).toISOString(),
    authorId: note.author_id ?? 'agent2',
    authorKind: note.author_kind,
    severity: note.severity,
    wcagCriterion: note.wcag_criterion,
    wcagLevel: note.wcag_level,
    confirmed: note.confirmed,
    decision: note.decision,
    annotation: note.annotation,
    // Agent notes only: who worded the note, and Agent 2's cross-task patterns and their findings.
    provider: note.author_kind === 'agent' ? note.provider : null,
    usedFallback: note.author_kind === 'agent' ? note.used_fallback : null,
    pattern: note.pattern,
    patternNoteId: note.pattern_note_id,
  };
}
