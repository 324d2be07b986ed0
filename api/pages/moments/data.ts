import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { momentEvents } from '../../../db/repositories/finding-screenshots.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';

/** A replay shows this long before a finding's moment and after it. */
export const REPLAY_MARGIN_MS = 5_000;
/** The player's slider moves this far a step (moments/view.tsx). */
export const SLIDER_STEP_MS = 500;

export interface MomentReplay {
  /** The finding's text (the note's content). */
  readonly finding: string;
  /** The events from a full snapshot through the end of the window; null: no recording covers it. */
  readonly events: readonly unknown[] | null;
  /** The window shown (ms since the epoch): from a few seconds before the moment to a few after. */
  readonly from: number;
  readonly at: number;
  readonly to: number;
}

/**
 * A finding of a session (one of its notes) with the recording around its moment, as row-level
 * security lets the person see them: the note (no unconfirmed AI finding reaches the organization)
 * and the recording (`app.can_watch_session`); undefined when the finding is not theirs to see.
 */
export async function loadMomentReplay(
  db: Db,
  principal: SessionPrincipal,
  sessionId: string,
  noteId: string,
): Promise<MomentReplay | undefined> {
  const note = await asUser(db, principal.claims, (tx) =>
    tx
      .selectFrom('session_notes')
      .select(['content', 'noted_at', 'created_at'])
      .where('id', '=', noteId)
      .where('session_id', '=', sessionId)
      .executeTakeFirst(),
  );
  if (!note) return undefined;
  const at = (note.noted_at ?? note.created_at).getTime();
  const to = at + REPLAY_MARGIN_MS;
  // From the page as it was at the moment (its last snapshot before), read on to the window's end.
  const events = await momentEvents(
    (query) => asUser(db, principal.claims, query),
    sessionId,
    new Date(at),
    new Date(to),
  );
  const start = (events?.[0] as { timestamp?: number } | undefined)?.timestamp ?? at;
  // The window opens at most 5 s before, on a whole number of the slider's steps before the moment.
  const before = Math.floor(Math.min(REPLAY_MARGIN_MS, at - start) / SLIDER_STEP_MS) * SLIDER_STEP_MS;
  return { finding: note.content, events, at, from: at - before, to };
}
