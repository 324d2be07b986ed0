import { sql, type RawBuilder } from 'kysely';
import type { Tx } from '../doors.ts';
import type { SessionStatus } from '../../lib/domain.ts';

// Bulk writes and privacy-aware reads of the three session signals (0006, 0012). Every write is
// one statement whatever the batch size: the rows travel as one array per column and `unnest`
// turns them back into rows, so a 1,000-item batch costs one round trip, not 1,000.

/** What a bulk write found: the rows went in (repeats skipped), or why nothing was written. */
export type RecordingOutcome =
  | { readonly kind: 'recorded'; readonly stored: number }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'not_recorder' }
  | { readonly kind: 'closed'; readonly status: SessionStatus };

export const RECORDING_STATUSES: readonly SessionStatus[] = ['active', 'paused'];

/**
 * What a write does with a row already stored (the extension resent its batch): `refuse` fails the
 * whole statement with a unique violation (the cheap plain insert, for the first try); `skip`
 * leaves the stored row and inserts the rest (`on conflict do nothing`, for the second).
 */
export type Repeats = 'refuse' | 'skip';

const UNIQUE_VIOLATION = '23505';

/** Whether a write failed because some row of the batch was stored already. */
export const isRepeatedRow = (error: unknown): boolean =>
  (error as { code?: unknown } | null)?.code === UNIQUE_VIOLATION;

interface Column {
  readonly name: string;
  /** PostgreSQL element type of the column's array parameter. */
  readonly type: string;
}

const EVENT_COLUMNS: readonly Column[] = [
  { name: 'event_type', type: 'text' },
  { name: 'target_selector', type: 'text' },
  { name: 'occurred_at', type: 'timestamptz' },
  { name: 'x', type: 'float8' },
  { name: 'y', type: 'float8' },
  { name: 'scroll_y', type: 'float8' },
  { name: 'input_length', type: 'int4' },
  { name: 'viewport_width', type: 'int4' },
  { name: 'viewport_height', type: 'int4' },
];

const FACIAL_COLUMNS: readonly Column[] = [
  { name: 'frame_index', type: 'int4' },
  { name: 'captured_at', type: 'timestamptz' },
  { name: 'face_detected', type: 'bool' },
  { name: 'emotion', type: 'text' },
  { name: 'confidences', type: 'jsonb' },
  { name: 'action_units', type: 'jsonb' },
  { name: 'attention_score', type: 'float4' },
  { name: 'gaze_x', type: 'float4' },
  { name: 'gaze_y', type: 'float4' },
];

const VOICE_COLUMNS: readonly Column[] = [
  { name: 'segment_index', type: 'int4' },
  { name: 'started_at', type: 'timestamptz' },
  { name: 'ended_at', type: 'timestamptz' },
  { name: 'transcript', type: 'text' },
  { name: 'sentiment', type: 'text' },
  { name: 'sentiment_score', type: 'float4' },
  { name: 'hesitation_count', type: 'int4' },
  { name: 'words_per_minute', type: 'float4' },
  { name: 'contains_pii', type: 'bool' },
];

type Cell = string | number | boolean | null;

export interface EventRow {
  readonly eventType: string;
  readonly targetSelector: string;
  readonly occurredAt: string;
  readonly x: number | null;
  readonly y: number | null;
  readonly scrollY: number | null;
  readonly inputLength: number | null;
  readonly viewportWidth: number | null;
  readonly viewportHeight: number | null;
}

export interface FacialRow {
  readonly frameIndex: number;
  readonly capturedAt: string;
  readonly faceDetected: boolean;
  readonly emotion: string | null;
  readonly confidences: Readonly<Record<string, number>>;
  readonly actionUnits: Readonly<Record<string, number>>;
  readonly attentionScore: number;
  readonly gazeX: number | null;
  readonly gazeY: number | null;
}

export interface VoiceRow {
  readonly segmentIndex: number;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly transcript: string;
  readonly sentiment: string;
  readonly sentimentScore: number;
  readonly hesitationCount: number | null;
  readonly wordsPerMinute: number | null;
  readonly containsPii: boolean;
}

export function insertEvents(tx: Tx, sessionId: string, rows: readonly EventRow[], repeats: Repeats) {
  return insertSignals(tx, 'session_events', EVENT_COLUMNS, { sessionId, rows, repeats }, (r) => [
    r.eventType,
    r.targetSelector,
    r.occurredAt,
    r.x,
    r.y,
    r.scrollY,
    r.inputLength,
    r.viewportWidth,
    r.viewportHeight,
  ]);
}

export function insertFacialSnapshots(
  tx: Tx,
  sessionId: string,
  rows: readonly FacialRow[],
  repeats: Repeats,
) {
  return insertSignals(tx, 'facial_snapshots', FACIAL_COLUMNS, { sessionId, rows, repeats }, (r) => [
    r.frameIndex,
    r.capturedAt,
    r.faceDetected,
    r.emotion,
    JSON.stringify(r.confidences),
    JSON.stringify(r.actionUnits),
    r.attentionScore,
    r.gazeX,
    r.gazeY,
  ]);
}

export function insertVoiceSegments(tx: Tx, sessionId: string, rows: readonly VoiceRow[], repeats: Repeats) {
  return insertSignals(tx, 'voice_segments', VOICE_COLUMNS, { sessionId, rows, repeats }, (r) => [
    r.segmentIndex,
    r.startedAt,
    r.endedAt,
    r.transcript,
    r.sentiment,
    r.sentimentScore,
    r.hesitationCount,
    r.wordsPerMinute,
    r.containsPii,
  ]);
}

const recordingLock = (sessionId: string) => sql`hashtextextended(${`session-recording:${sessionId}`}, 0)`;

/**
 * Held (shared) by every signal write until it commits, and taken (exclusive) by whatever closes
 * the session's recording and then reads its signals (success pages are judged at completion).
 * So a batch in flight when the session completes is either committed before that reading or
 * finds the session closed: no batch can land after the judgement, unseen by it.
 */
export async function holdRecording(tx: Tx, sessionId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock_shared(${recordingLock(sessionId)})`.execute(tx);
}

/** Waits for the signal writes in flight to commit, and keeps new ones out until this commits. */
export async function closeRecording(tx: Tx, sessionId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${recordingLock(sessionId)})`.execute(tx);
}

/**
 * Under the session's shared recording lock, one statement that reads the session and, only when
 * the caller may record on it now, inserts the rows; repeats of stored rows (unique keys of 0006 and 0012) fail it or are skipped, as
 * `repeats` says. The session check gives the caller a precise answer; the table's insert policy
 * still guards every row.
 */
async function insertSignals<R>(
  tx: Tx,
  table: 'session_events' | 'facial_snapshots' | 'voice_segments',
  columns: readonly Column[],
  { sessionId, rows, repeats }: { sessionId: string; rows: readonly R[]; repeats: Repeats },
  cells: (row: R) => Cell[],
): Promise<RecordingOutcome> {
  const arrays: Cell[][] = columns.map(() => new Array<Cell>(rows.length));
  rows.forEach((row, i) => cells(row).forEach((cell, c) => (arrays[c]![i] = cell)));
  const names = sql.raw(columns.map((column) => column.name).join(', '));
  const unnested: RawBuilder<unknown>[] = columns.map(
    (column, c) => sql`${arrays[c]}::${sql.raw(column.type === 'jsonb' ? 'text' : column.type)}[]`,
  );
  const selected = sql.raw(
    columns
      .map((column) => (column.type === 'jsonb' ? `u.${column.name}::jsonb` : `u.${column.name}`))
      .join(', '),
  );
  // A statement of its own: the insert below must read the session after the wait, not before.
  await holdRecording(tx, sessionId);
  const { rows: result } = await sql<{
    status: SessionStatus | null;
    may_record: boolean | null;
    stored: number;
  }>`
    with target as (
      select status, (tester_id = app.user_id() or app.is_admin()) as may_record
      from sessions where id = ${sessionId}::uuid
    ), stored as (
      insert into ${sql.table(table)} (session_id, ${names})
      select ${sessionId}::uuid, ${selected}
      from unnest(${sql.join(unnested)}) as u (${names})
      where exists (select 1 from target where may_record and status in ('active', 'paused'))
      ${repeats === 'skip' ? sql`on conflict do nothing` : sql``}
      returning 1
    )
    select (select status from target) as status, (select may_record from target) as may_record,
           (select count(*) from stored)::int as stored`.execute(tx);
  const { status, may_record: mayRecord, stored } = result[0]!;
  if (status === null) return { kind: 'not_found' };
  if (!mayRecord) return { kind: 'not_recorder' };
  if (!RECORDING_STATUSES.includes(status)) return { kind: 'closed', status };
  return { kind: 'recorded', stored };
}

/** Whether the caller may record on the session now (read before costly work such as the facial engine). */
export async function recordingCheck(tx: Tx, sessionId: string): Promise<RecordingOutcome> {
  const row = await tx
    .selectFrom('sessions')
    .select((eb) => [
      'status',
      eb
        .or([eb('tester_id', '=', sql<string>`app.user_id()`), sql<boolean>`app.is_admin()`])
        .as('may_record'),
    ])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return { kind: 'not_found' };
  if (!row.may_record) return { kind: 'not_recorder' };
  if (!RECORDING_STATUSES.includes(row.status)) return { kind: 'closed', status: row.status };
  return { kind: 'recorded', stored: 0 };
}

/** Which signals the session's study asks the extension to record (`studies` settings). */
export interface StudySignals {
  readonly recordFacial: boolean;
  readonly recordVoice: boolean;
  readonly requireThinkAloud: boolean;
  readonly recordScreen: boolean;
}

/** What a recorder of the session needs to go on: the study's signals and the next free indexes. */
export interface RecorderView {
  readonly signals: StudySignals;
  /** One past the highest stored `frameIndex` (0 for none). */
  readonly nextFrameIndex: number;
  /** One past the highest stored `segmentIndex` (0 for none). */
  readonly nextSegmentIndex: number;
  /** One past the highest stored recording chunk number (0 for none). */
  readonly nextChunk: number;
  /** Where the tester opens what the study tests. */
  readonly prototypeUrl: string;
}

/** The recorder's view in one statement (RLS: a recording tester sees the study and its own rows). */
export async function recorderView(tx: Tx, sessionId: string): Promise<RecorderView | undefined> {
  const { rows } = await sql<{
    record_facial: boolean;
    record_voice: boolean;
    require_think_aloud: boolean;
    record_screen: boolean;
    prototype_url: string;
    next_frame: number;
    next_segment: number;
    next_chunk: number;
  }>`
    select st.record_facial, st.record_voice, st.require_think_aloud, st.record_screen, st.prototype_url,
           coalesce((select max(frame_index) + 1 from facial_snapshots where session_id = s.id), 0)::int as next_frame,
           coalesce((select max(segment_index) + 1 from voice_segments where session_id = s.id), 0)::int as next_segment,
           coalesce((select max(seq) + 1 from session_recording_chunks where session_id = s.id), 0)::int as next_chunk
    from sessions s join studies st on st.id = s.study_id
    where s.id = ${sessionId}`.execute(tx);
  const row = rows[0];
  return (
    row && {
      signals: {
        recordFacial: row.record_facial,
        recordVoice: row.record_voice,
        requireThinkAloud: row.require_think_aloud,
        recordScreen: row.record_screen,
      },
      nextFrameIndex: row.next_frame,
      nextSegmentIndex: row.next_segment,
      nextChunk: row.next_chunk,
      prototypeUrl: row.prototype_url,
    }
  );
}

/** Voice segments an AI agent may read: those flagged as holding PII stay out until sanitised. */
export function voiceSegmentsForAnalysis(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('voice_segments')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('contains_pii', '=', false)
    .orderBy('segment_index')
    .execute();
}

/** Facial snapshots an agent may read: frames without a detected face (or without an engine answer) stay out. */
export function facialSnapshotsForAnalysis(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('facial_snapshots')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('face_detected', '=', true)
    .orderBy('frame_index')
    .execute();
}

/** A session's segments still flagged as holding PII, oldest first. */
export function flaggedVoiceSegments(tx: Tx, sessionId: string, limit: number) {
  return tx
    .selectFrom('voice_segments')
    .select(['id', 'transcript'])
    .where('session_id', '=', sessionId)
    .where('contains_pii', '=', true)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Stores the redacted transcripts and clears their flags in one statement, so the segments become analysable. */
export async function saveSanitisedTranscripts(
  tx: Tx,
  segments: readonly { readonly id: string; readonly transcript: string }[],
  at: Date,
): Promise<void> {
  if (!segments.length) return;
  await sql`
    update voice_segments v
    set transcript = u.transcript, contains_pii = false, sanitised = true, sanitised_at = ${at}
    from unnest(${segments.map((s) => s.id)}::bigint[], ${segments.map((s) => s.transcript)}::text[])
      as u (id, transcript)
    where v.id = u.id and v.contains_pii`.execute(tx);
}
