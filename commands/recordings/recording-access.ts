import { blankReplayedScreenshots } from '../../db/repositories/finding-screenshots.ts';
import { asUser, type Tx } from '../../db/doors.ts';
import {
  eraseRecording,
  findRecordingChunk,
  listRecordingChunks,
  type ChunkSummary,
} from '../../db/repositories/recordings.ts';
import type { SessionRow } from '../../db/repositories/sessions.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { requireVisibleSession } from '../sessions/session-workflow.ts';
import type { CommandContext } from '../context.ts';
import type { Principal } from '../principal.ts';

// Who watches and erases a session's DOM recording (docs/decisions/sessions.md, "Screen
// recordings"). Row-level security (0041) keeps the rows; these give each refusal its reason.

const isTesterOf = (principal: Principal, session: SessionRow) => principal.claims.sub === session.tester_id;
const isAdmin = (principal: Principal) => principal.claims.role === 'admin';

/** The session, when the caller may watch its recording: those who may read the session's report. */
async function watchableSession(tx: Tx, principal: Principal, sessionId: string): Promise<SessionRow> {
  const session = await requireVisibleSession(tx, sessionId);
  if (!isAdmin(principal) && !isTesterOf(principal, session) && !session.notes_confirmed)
    throw forbidden(
      "The session's recording is watched by its business once the tester has confirmed the findings",
    );
  return session;
}

export function recordingChunksOf(
  deps: CommandContext,
  principal: Principal,
  sessionId: string,
): Promise<ChunkSummary[]> {
  return asUser(deps.db, principal.claims, async (tx) => {
    await watchableSession(tx, principal, sessionId);
    return listRecordingChunks(tx, sessionId);
  });
}

export function recordingChunk(deps: CommandContext, principal: Principal, sessionId: string, seq: number) {
  return asUser(deps.db, principal.claims, async (tx) => {
    await watchableSession(tx, principal, sessionId);
    const chunk = await findRecordingChunk(tx, sessionId, seq);
    if (!chunk) throw notFound('Recording chunk');
    return chunk;
  });
}

/** Erases the session's recording at its tester's (or an admin's) request; returns the chunks erased. */
export function eraseSessionRecording(
  deps: CommandContext,
  principal: Principal,
  sessionId: string,
): Promise<number> {
  return asUser(deps.db, principal.claims, async (tx) => {
    const session = await requireVisibleSession(tx, sessionId);
    if (!isAdmin(principal) && !isTesterOf(principal, session))
      throw forbidden("Only the session's tester (or an admin) erases its recording");
    const erased = await eraseRecording(tx, sessionId);
    // A picture replayed from the recording shows what it showed: it goes with it.
    await blankReplayedScreenshots(tx, sessionId);
    return erased;
  });
}
