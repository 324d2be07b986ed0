import { sql, type Insertable, type Selectable } from 'kysely';
import type { Tx } from '../doors.ts';
import { FINDING_SEVERITIES, type NoteDecisionInput } from '../../lib/domain.ts';
import type { SessionNotesTable } from '../schema-sessions.ts';

export type NoteRow = Selectable<SessionNotesTable>;
export type NewNote = Insertable<SessionNotesTable>;

/** The notes of a session the caller may see (row-level security filters them), in time order. */
export function listNotes(tx: Tx, sessionId: string): Promise<NoteRow[]> {
  return tx
    .selectFrom('session_notes')
    .selectAll()
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Replaces the undecided agent findings of a session by a new run's, so a retried or repeated
 * Agent 2 never leaves duplicates; decided notes and human notes stay.
 */
export async function replaceAgentFindings(
  tx: Tx,
  sessionId: string,
  notes: readonly NewNote[],
): Promise<void> {
  await tx
    .deleteFrom('session_notes')
    .where('session_id', '=', sessionId)
    .where('author_kind', '=', 'agent')
    .where('decision', 'is', null)
    .execute();
  await insertNotes(tx, notes);
}

/**
 * The tester's decisions on agent findings: rejected findings stay unconfirmed for good; confirmed
 * and undecided findings become confirmed (DESIGN.md: undecided notes count as confirmed). Human
 * notes are never confirmed by default: a note the business added must not pass the gate because
 * the tester did not object to it.
 */
export async function applyDecisions(
  tx: Tx,
  sessionId: string,
  decisions: readonly NoteDecisionInput[],
  at: Date,
): Promise<void> {
  for (const { noteId, decision, annotation } of decisions) {
    await tx
      .updateTable('session_notes')
      .set({
        decision,
        confirmed: decision === 'confirmed',
        decided_at: at,
        updated_at: at,
        ...(annotation !== undefined ? { annotation } : {}),
      })
      .where('id', '=', noteId)
      .where('session_id', '=', sessionId)
      .where('author_kind', '=', 'agent')
      .execute();
  }
  await tx
    .updateTable('session_notes')
    .set({ confirmed: true, updated_at: at })
    .where('session_id', '=', sessionId)
    .where('author_kind', '=', 'agent')
    .where('decision', 'is', null)
    .execute();
}

/**
 * What a report is built from: agent findings the tester confirmed (explicitly or by not rejecting
 * them), each with its task's order and title (null between tasks).
 */
export function confirmedFindings(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('session_notes as n')
    .leftJoin('study_tasks as t', 't.id', 'n.task_id')
    .selectAll('n')
    .select(['t.position as task_order', 't.title as task_title'])
    .where('n.session_id', '=', sessionId)
    .where('n.author_kind', '=', 'agent')
    .where('n.confirmed', '=', true)
    .where((eb) => eb.or([eb('n.decision', 'is', null), eb('n.decision', '=', 'confirmed')]))
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
}

/**
 * The confirmed findings as Agent 3 and the seed read them, in the shape of a report's input
 * (ConfirmedNote, lib/analysis/session-report.ts): all a report is built from.
 */
export async function confirmedNotes(tx: Tx, sessionId: string) {
  const notes = await confirmedFindings(tx, sessionId);
  return notes.map((note) => ({
    noteId: note.id,
    content: note.content,
    annotation: note.annotation,
    severity: note.severity,
    wcagCriterion: note.wcag_criterion,
    wcagLevel: note.wcag_level,
    at: note.noted_at ?? note.created_at,
    target: note.target_selector,
    pattern: note.pattern,
    patternNoteId: note.pattern_note_id,
    task:
      note.task_order !== null && note.task_title !== null
        ? { order: note.task_order, title: note.task_title }
        : null,
  }));
}

export function noteIdsOf(
  tx: Tx,
  sessionId: string,
): Promise<{ id: string; author_kind: string; author_id: string | null }[]> {
  return tx
    .selectFrom('session_notes')
    .select(['id', 'author_kind', 'author_id'])
    .where('session_id', '=', sessionId)
    .execute();
}

export async function updateNoteContent(tx: Tx, noteId: string, content: string, at: Date): Promise<void> {
  await tx.updateTable('session_notes').set({ content, updated_at: at }).where('id', '=', noteId).execute();
}

export async function insertNotes(tx: Tx, notes: readonly NewNote[]): Promise<void> {
  if (notes.length)
    await tx
      .insertInto('session_notes')
      .values([...notes])
      .execute();
}

/**
 * A study's confirmed findings whose moment the screen recording holds (their session has chunks),
 * most severe first, then in the order they happened: the study page's players. Patterns are left
 * out (they have no single moment). Row-level security decides what the caller sees.
 */
export function recordedFindingsOfStudy(tx: Tx, studyId: string, limit: number) {
  return tx
    .selectFrom('session_notes as n')
    .innerJoin('sessions as s', 's.id', 'n.session_id')
    .select([
      'n.id',
      'n.session_id',
      'n.content',
      'n.severity',
      'n.wcag_criterion',
      'n.wcag_level',
      'n.noted_at',
      'n.created_at',
    ])
    .where('s.study_id', '=', studyId)
    .where('n.author_kind', '=', 'agent')
    .where('n.pattern', '=', false)
    .where('n.confirmed', '=', true)
    .where((eb) => eb.or([eb('n.decision', 'is', null), eb('n.decision', '=', 'confirmed')]))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('session_recording_chunks as c')
          .select('c.id')
          .whereRef('c.session_id', '=', 'n.session_id'),
      ),
    )
    .orderBy(sql`array_position(${[...FINDING_SEVERITIES]}::text[], n.severity::text)`)
    .orderBy(sql`coalesce(n.noted_at, n.created_at)`)
    .orderBy('n.id')
    .limit(limit)
    .execute();
}
