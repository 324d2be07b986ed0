import { asUser } from '../../db/doors.ts';
import { insertNotes, noteIdsOf, updateNoteContent } from '../../db/repositories/session-notes.ts';
import { insertFeedback } from '../../db/repositories/sessions.ts';
import type { Principal } from '../principal.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { FeedbackInput, UpdateNotesInput } from './session.schema.ts';
import { requireVisibleSession } from './session-workflow.ts';
import type { CommandContext } from '../context.ts';

const AFTER_COMPLETION = new Set(['completed', 'analyzing', 'analyzed', 'confirmed']);

/**
 * Humans add notes and edit their own until the tester confirms; after that the findings are what
 * the report was built from. Agent findings change only through the tester's decisions.
 */
export async function updateNotes(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: UpdateNotesInput,
) {
  const now = deps.now();
  const me = principal.claims.sub;
  return asUser(deps.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, id);
    if (session.status === 'confirmed' || session.status === 'cancelled') {
      throw conflict(`Notes can change only until the session is confirmed (it is ${session.status})`);
    }
    const notes = new Map((await noteIdsOf(tx, id)).map((note) => [note.id, note]));
    let updatedCount = 0;
    const created = [];
    for (const item of input.notes) {
      if (item.noteId === undefined) {
        created.push({ session_id: id, content: item.content, author_kind: 'human' as const, author_id: me });
        continue;
      }
      const note = notes.get(item.noteId);
      if (!note) throw notFound('Note');
      if (note.author_kind !== 'human' || note.author_id !== me) {
        throw forbidden('Only the author of a note can edit it');
      }
      await updateNoteContent(tx, item.noteId, item.content, now);
      updatedCount += 1;
    }
    await insertNotes(tx, created);
    return { sessionId: id, updatedCount, createdCount: created.length };
  });
}

export async function submitFeedback(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: FeedbackInput,
) {
  const stored = await asUser(deps.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, id);
    if (session.tester_id !== principal.claims.sub)
      throw forbidden("Only the session's tester can give feedback");
    if (!AFTER_COMPLETION.has(session.status)) {
      throw conflict(`Session must be completed to give feedback (it is ${session.status})`);
    }
    return insertFeedback(tx, {
      session_id: id,
      tester_id: principal.claims.sub,
      clarity: input.clarity,
      difficulty: input.difficulty,
      technical_issues: input.technicalIssues,
      comment: input.comment ?? null,
      submitted_at: deps.now(),
    });
  });
  if (!stored) throw conflict('Feedback was already submitted for this session');
  return { sessionId: id, feedbackId: stored.id, submittedAt: stored.submitted_at.toISOString() };
}
