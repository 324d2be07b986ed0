import { asUser } from '../../db/doors.ts';
import { noteIdsOf } from '../../db/repositories/session-notes.ts';
import {
  analyzeSessionUpdate,
  changeSessionStatusUpdate,
  confirmSessionUpdate,
} from '../../workflows/messages/session.ts';
import {
  analyzeRefusal,
  confirmRefusal,
  nextSessionStatus,
  type SessionStatusAction,
} from '../../workflows/session-transitions.ts';
import type { Principal } from '../principal.ts';
import { conflict, forbidden, invalid } from '../../lib/errors.ts';
import type { ConfirmSessionInput } from './session.schema.ts';
import { requireVisibleSession, updateSessionWorkflow, visibleSession } from './session-workflow.ts';
import type { CommandContext } from '../context.ts';

// Every command reads the state from the database to answer 409 early, then changes it only
// through the session workflow, which judges the transition again.

export async function changeSessionStatus(
  deps: CommandContext,
  principal: Principal,
  id: string,
  action: SessionStatusAction,
  completedAt?: string,
) {
  const session = await visibleSession(deps.db, principal, id);
  const transition = nextSessionStatus(session.status, action);
  if ('refusal' in transition) throw conflict(transition.refusal);
  let at: string | undefined;
  if (action === 'complete') {
    const when = completedAt ? new Date(completedAt) : deps.now();
    if (when < session.started_at) throw invalid('completedAt: Must not be before the session started');
    if (when > deps.now()) throw invalid('completedAt: Must not be in the future');
    at = when.toISOString();
  }
  return updateSessionWorkflow(deps, principal, id, (handle) =>
    handle.executeUpdate(changeSessionStatusUpdate, {
      args: [{ action, ...(at ? { completedAt: at } : {}) }],
    }),
  );
}

export async function analyzeSession(deps: CommandContext, principal: Principal, id: string) {
  const session = await visibleSession(deps.db, principal, id);
  const refusal = analyzeRefusal(session.status);
  if (refusal) throw conflict(refusal);
  // A finished analysis is answered as recorded: the workflow would say the same once it has seen
  // its own write land, which may be a moment after the row shows it.
  if (session.status === 'analyzed') {
    return { status: session.status, completedAt: session.completed_at?.toISOString() ?? null };
  }
  return updateSessionWorkflow(deps, principal, id, (handle) => handle.executeUpdate(analyzeSessionUpdate));
}

/** The human-in-the-loop gate: only the session's tester opens it, once the findings exist. */
export async function confirmSession(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: ConfirmSessionInput,
) {
  const notes = await asUser(deps.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, id);
    if (session.tester_id !== principal.claims.sub) {
      throw forbidden("Only the session's tester can confirm its findings");
    }
    const refusal = confirmRefusal(session.status);
    if (refusal) throw conflict(refusal);
    return noteIdsOf(tx, id);
  });
  const known = new Map(notes.map((n) => [n.id, n.author_kind]));
  const unknown = input.notes.findIndex((note) => !known.has(note.noteId));
  if (unknown >= 0) throw invalid(`notes[${unknown}].noteId: Not a note of this session`);
  // Human notes (the tester's own, the business's) never enter a report, so there is nothing to decide.
  const human = input.notes.findIndex((note) => known.get(note.noteId) !== 'agent');
  if (human >= 0) throw invalid(`notes[${human}].noteId: Only agent findings are confirmed or rejected`);
  return updateSessionWorkflow(deps, principal, id, (handle) =>
    handle.executeUpdate(confirmSessionUpdate, {
      args: [
        {
          rating: input.rating,
          comment: input.comment,
          decisions: input.notes,
          confirmedAt: deps.now().toISOString(),
        },
      ],
    }),
  );
}
