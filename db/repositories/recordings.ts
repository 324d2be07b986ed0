import { sql } from 'kysely';
import type { Tx } from '../doors.ts';
import { holdRecording, recordingCheck, type RecordingOutcome } from './signals.ts';

// A session's DOM recording (0041): numbered chunks of gzip-compressed rrweb events.

export interface RecordingChunkRow {
  readonly seq: number;
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly eventCount: number;
  readonly hasFullSnapshot: boolean;
  readonly data: Buffer;
}

/** Why a chunk was not stored although the session records. */
export type ChunkRefusal = 'not_recorded' | 'full';

export interface ChunksWritten {
  readonly outcome: RecordingOutcome;
  /** By position in `rows`: the chunks refused (the others are stored now or were already). */
  readonly refused: ReadonlyMap<number, ChunkRefusal>;
}

/**
 * Stores new chunks under the session's shared recording lock, as the other signals are; a chunk
 * whose number is stored already is left as it is (the extension resent it). A study that does not
 * record the screen takes none, and a session's recording stops growing at `maxSessionBytes`.
 */
export async function insertRecordingChunks(
  tx: Tx,
  sessionId: string,
  rows: readonly RecordingChunkRow[],
  maxSessionBytes: number,
): Promise<ChunksWritten> {
  const refused = new Map<number, ChunkRefusal>();
  await holdRecording(tx, sessionId);
  // One chunk write of a session at a time: two batches in flight would each count the bytes stored
  // without the other's and could pass the session's limit together.
  await sql`select pg_advisory_xact_lock(hashtextextended(${`session-recording-chunks:${sessionId}`}, 0))`.execute(
    tx,
  );
  // Who may record, and when, as for every other signal.
  const check = await recordingCheck(tx, sessionId);
  if (check.kind !== 'recorded') return { outcome: check, refused };
  const { rows: found } = await sql<{ record_screen: boolean; stored_bytes: number; stored_seqs: number[] }>`
    select st.record_screen,
           coalesce((select sum(byte_length) from session_recording_chunks where session_id = s.id), 0)::float8 as stored_bytes,
           array(select seq from session_recording_chunks
                 where session_id = s.id and seq = any(${rows.map((row) => row.seq)}::int4[])) as stored_seqs
    from sessions s join studies st on st.id = s.study_id
    where s.id = ${sessionId}::uuid`.execute(tx);
  const session = found[0]!;
  const seen = new Set(session.stored_seqs);
  let total = session.stored_bytes;
  let stored = 0;
  for (const [index, row] of rows.entries()) {
    if (seen.has(row.seq)) continue;
    if (!session.record_screen) refused.set(index, 'not_recorded');
    else if (total + row.data.length > maxSessionBytes) refused.set(index, 'full');
    else {
      const inserted = await tx
        .insertInto('session_recording_chunks')
        .values({
          session_id: sessionId,
          seq: row.seq,
          started_at: row.startedAt,
          ended_at: row.endedAt,
          event_count: row.eventCount,
          has_full_snapshot: row.hasFullSnapshot,
          data: row.data,
          byte_length: row.data.length,
        })
        .onConflict((conflict) => conflict.columns(['session_id', 'seq']).doNothing())
        .executeTakeFirst();
      seen.add(row.seq);
      if (inserted.numInsertedOrUpdatedRows) {
        total += row.data.length;
        stored += 1;
      }
    }
  }
  return { outcome: { kind: 'recorded', stored }, refused };
}

export interface ChunkSummary {
  readonly seq: number;
  readonly started_at: Date;
  readonly ended_at: Date;
  readonly event_count: number;
  readonly has_full_snapshot: boolean;
  readonly byte_length: number;
}

/** The chunks the caller may watch, in order, without their data. */
export function listRecordingChunks(tx: Tx, sessionId: string): Promise<ChunkSummary[]> {
  return tx
    .selectFrom('session_recording_chunks')
    .select(['seq', 'started_at', 'ended_at', 'event_count', 'has_full_snapshot', 'byte_length'])
    .where('session_id', '=', sessionId)
    .orderBy('seq')
    .execute();
}

/** Whether the session has a recording the caller may watch. */
export async function hasRecording(tx: Tx, sessionId: string): Promise<boolean> {
  const found = await tx
    .selectFrom('session_recording_chunks')
    .select('id')
    .where('session_id', '=', sessionId)
    .limit(1)
    .executeTakeFirst();
  return found !== undefined;
}

/** One chunk with its compressed events, when the caller may watch it. */
export function findRecordingChunk(
  tx: Tx,
  sessionId: string,
  seq: number,
): Promise<(ChunkSummary & { readonly data: Buffer }) | undefined> {
  return tx
    .selectFrom('session_recording_chunks')
    .select(['seq', 'started_at', 'ended_at', 'event_count', 'has_full_snapshot', 'byte_length', 'data'])
    .where('session_id', '=', sessionId)
    .where('seq', '=', seq)
    .executeTakeFirst();
}

/** Erases the session's recording; returns how many chunks it held. */
export async function eraseRecording(tx: Tx, sessionId: string): Promise<number> {
  const result = await tx
    .deleteFrom('session_recording_chunks')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Erases the recordings (whole, never a part) whose newest chunk came before `receivedBefore`, at
 * most `limit` sessions' worth, and blanks the pictures replayed from them; returns the chunks
 * erased and the sessions they belonged to.
 */
export async function eraseExpiredRecordings(
  tx: Tx,
  receivedBefore: Date,
  limit: number,
): Promise<{ readonly sessions: number; readonly chunks: number }> {
  const { rows } = await sql<{ sessions: number; chunks: number }>`
    with expired as (
      select distinct c.session_id from session_recording_chunks c
      where c.received_at < ${receivedBefore}
        and not exists (select 1 from session_recording_chunks n
                        where n.session_id = c.session_id and n.received_at >= ${receivedBefore})
      limit ${limit}
    ), erased as (
      delete from session_recording_chunks c using expired e
      where c.session_id = e.session_id
      returning c.session_id
    ), blanked as (
      -- The pictures replayed from a recording go with it (finding-screenshots.ts, blankReplayedScreenshots).
      update finding_screenshots f
      set source = 'none', png = null, width = null, height = null, alt_text = null, page_url = null,
          outlined = false, gap = 'recording_erased'
      from expired e
      where f.session_id = e.session_id and f.source = 'replay'
      returning f.id
    )
    select count(distinct session_id)::int as sessions, count(*)::int as chunks from erased`.execute(tx);
  return rows[0] ?? { sessions: 0, chunks: 0 };
}
