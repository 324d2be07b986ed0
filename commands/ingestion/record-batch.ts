import type { Logger } from 'pino';
import { asUser, type Tx } from '../../db/doors.ts';
import {
  insertEvents,
  insertFacialSnapshots,
  insertVoiceSegments,
  isRepeatedRow,
  recordingCheck,
  recorderView,
  type RecordingOutcome,
  type Repeats,
} from '../../db/repositories/signals.ts';
import { tasksWithAttempts, type TaskWithAttemptRow } from '../../db/repositories/task-attempts.ts';
import { insertRecordingChunks, type ChunkRefusal } from '../../db/repositories/recordings.ts';
import type { Principal } from '../principal.ts';
import { ApiError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { MAX_BATCH_ITEMS, type BatchKind } from './batch.schema.ts';
import { toEventRow, toFacialRow, toNoFaceRow, toSnapshotRow, toVoiceRow } from './item-rows.ts';
import {
  eventItem,
  facialItem,
  snapshotRouteSchema,
  voiceItem,
  type SnapshotRouteItem,
} from './items.schema.ts';
import { checkBatch, type Rejection } from './validate-batch.ts';
import type { CommandContext } from '../context.ts';

/** What a batch came to (the REST answer's `data`, api/ingestion/ingestion.schema.ts). */
export interface BatchResult {
  readonly sessionId: string;
  /** Valid items, stored now or by an earlier try of the same batch. */
  readonly accepted: number;
  readonly rejected: number;
  readonly rejections: readonly Rejection[];
}

/**
 * A snapshots batch also says what the study records and where the recorders go on; the empty
 * batch the extension sends first (its probe) also names the study's tasks and where to test.
 */
export interface SnapshotsResult extends BatchResult {
  readonly signals?: {
    recordFacial: boolean;
    recordVoice: boolean;
    requireThinkAloud: boolean;
    recordScreen: boolean;
  };
  readonly nextFrameIndex: number;
  readonly nextSegmentIndex: number;
  readonly nextChunk: number;
  readonly tasks?: readonly TaskWithAttemptRow[];
  readonly prototypeUrl?: string;
}

export interface BatchRequest {
  readonly principal: Principal;
  readonly sessionId: string;
  readonly batch: readonly unknown[];
  readonly log: Logger;
}

/** Records one batch of a signal: every item checked alone, the valid ones written in one statement. */
export async function recordBatch(
  deps: CommandContext,
  kind: BatchKind,
  request: BatchRequest,
): Promise<BatchResult> {
  const { batch } = request;
  if (batch.length > MAX_BATCH_ITEMS)
    throw new ApiError(
      'payload_too_large',
      `batch: at most ${MAX_BATCH_ITEMS} items per request (got ${batch.length})`,
    );
  switch (kind) {
    case 'events':
      return write(deps, request, checkBatch(eventItem, batch), (tx, items, repeats) =>
        insertEvents(tx, request.sessionId, items.map(toEventRow), repeats),
      );
    case 'facial':
      return write(deps, request, checkBatch(facialItem, batch), (tx, items, repeats) =>
        insertFacialSnapshots(tx, request.sessionId, items.map(toFacialRow), repeats),
      );
    case 'voice':
      return write(deps, request, checkBatch(voiceItem, batch), (tx, items, repeats) =>
        insertVoiceSegments(tx, request.sessionId, items.map(toVoiceRow), repeats),
      );
    case 'snapshots':
      return recordSnapshots(deps, request);
  }
}

async function write<T>(
  deps: CommandContext,
  request: BatchRequest,
  checked: { accepted: T[]; rejections: Rejection[] },
  insert: (tx: Tx, items: T[], repeats: Repeats) => Promise<RecordingOutcome>,
): Promise<BatchResult> {
  const outcome = await writeSkippingRepeats(deps, request, (tx, repeats) =>
    insert(tx, checked.accepted, repeats),
  );
  return present(outcome, request.sessionId, checked.accepted.length, checked.rejections);
}

/**
 * A batch is first written as a plain insert, the cheap path every new batch takes; only a batch
 * holding rows already stored (the extension resent it) fails that and is written again, skipping
 * them. Skipping on every write would cost each new batch a speculative insertion per row.
 */
async function writeSkippingRepeats(
  deps: CommandContext,
  request: BatchRequest,
  insert: (tx: Tx, repeats: Repeats) => Promise<RecordingOutcome>,
): Promise<RecordingOutcome> {
  const attempt = (repeats: Repeats) =>
    asUser(deps.db, request.principal.claims, (tx) => insert(tx, repeats));
  try {
    return await attempt('refuse');
  } catch (error) {
    if (!isRepeatedRow(error)) throw error;
    return attempt('skip');
  }
}

/**
 * Snapshots with an image go to the facial engine, synchronously (spec); frames the extension
 * analysed itself, with or without a face, are stored as they came. The session is
 * checked first so that a closed session costs no engine calls; the insert checks it again. An
 * engine that fails leaves its snapshots stored without analysis and the request succeeds.
 * The images never leave this function: neither the rows nor the log carry them. Chunks of the
 * DOM recording are stored after the frames, in a transaction of their own.
 */
async function recordSnapshots(deps: CommandContext, request: BatchRequest): Promise<SnapshotsResult> {
  const { accepted, positions, rejections } = checkBatch(snapshotRouteSchema, request.batch);
  const probe = request.batch.length === 0;
  const { recorder, tasks } = await asUser(deps.db, request.principal.claims, async (tx) => {
    present(await recordingCheck(tx, request.sessionId), request.sessionId, 0, []);
    return {
      recorder: await recorderView(tx, request.sessionId),
      tasks: probe ? await tasksWithAttempts(tx, request.sessionId) : undefined,
    };
  });
  const frames = accepted.filter((entry) => entry.kind !== 'recording');
  const images = frames.flatMap((entry) => (entry.kind === 'image' ? [entry.item.image] : []));
  const analyses = await deps.facialEngine.analyzeAll(images);
  const failures = analyses.flatMap((analysis) => (analysis.kind === 'unavailable' ? [analysis.reason] : []));
  if (failures.length) {
    request.log.warn(
      { sessionId: request.sessionId, snapshots: failures.length, reason: failures[0] },
      'facial engine unavailable; snapshots stored without analysis',
    );
  }
  let nextAnalysis = 0;
  const rows = frames.map((entry) => {
    switch (entry.kind) {
      case 'image':
        return toSnapshotRow(entry.item, analyses[nextAnalysis++]!);
      case 'frame':
        return toFacialRow(entry.item);
      case 'no_face':
        return toNoFaceRow(entry.item);
    }
  });
  // A batch of recording chunks alone (every 5 s while the screen is recorded) writes no frame:
  // the session was checked above, and the chunks' own write checks it again.
  const outcome: RecordingOutcome = rows.length
    ? await writeSkippingRepeats(deps, request, (tx, repeats) =>
        insertFacialSnapshots(tx, request.sessionId, rows, repeats),
      )
    : { kind: 'recorded', stored: 0 };
  present(outcome, request.sessionId, 0, []);
  const refusals = await recordChunks(deps, request, accepted, positions);
  const allRejections = [...rejections, ...refusals].sort((a, b) => a.index - b.index);
  const answer = present(outcome, request.sessionId, accepted.length - refusals.length, allRejections);
  // The session was checked above, so the recorder's view exists.
  if (!recorder) return { ...answer, nextFrameIndex: 0, nextSegmentIndex: 0, nextChunk: 0 };
  return {
    ...answer,
    signals: recorder.signals,
    nextFrameIndex: frames.reduce(
      (next, entry) => Math.max(next, entry.item.frameIndex + 1),
      recorder.nextFrameIndex,
    ),
    nextSegmentIndex: recorder.nextSegmentIndex,
    nextChunk: accepted.reduce(
      (next, entry) => (entry.kind === 'recording' ? Math.max(next, entry.item.chunk + 1) : next),
      recorder.nextChunk,
    ),
    ...(tasks ? { tasks, prototypeUrl: recorder.prototypeUrl } : {}),
  };
}

const CHUNK_REFUSALS: Readonly<Record<ChunkRefusal, (deps: CommandContext) => string>> = {
  not_recorded: () => 'recording: this study does not record the screen (settings.recordScreen)',
  full: (deps) =>
    `recording: the session's recording is full (at most ${deps.config.recordings.maxSessionBytes / 1024 / 1024} MB)`,
};

/** Stores the batch's recording chunks; returns the rejections of those refused. */
async function recordChunks(
  deps: CommandContext,
  request: BatchRequest,
  accepted: readonly SnapshotRouteItem[],
  positions: readonly number[],
): Promise<Rejection[]> {
  const chunks = accepted.flatMap((entry, i) =>
    entry.kind === 'recording' ? [{ position: positions[i]!, chunk: entry.item }] : [],
  );
  if (!chunks.length) return [];
  const { outcome, refused } = await asUser(deps.db, request.principal.claims, (tx) =>
    insertRecordingChunks(
      tx,
      request.sessionId,
      chunks.map(({ chunk }) => ({ seq: chunk.chunk, ...chunk.measured })),
      deps.config.recordings.maxSessionBytes,
    ),
  );
  present(outcome, request.sessionId, 0, []);
  return [...refused].map(([i, refusal]) => ({
    index: chunks[i]!.position,
    reason: CHUNK_REFUSALS[refusal](deps),
  }));
}

/** The spec's answer, or the reason nothing could be recorded on the session. */
function present(
  outcome: RecordingOutcome,
  sessionId: string,
  accepted: number,
  rejections: Rejection[],
): BatchResult {
  switch (outcome.kind) {
    case 'not_found':
      throw notFound('Session');
    case 'not_recorder':
      throw forbidden("Only the session's tester records signals on it");
    case 'closed':
      throw conflict(`Session is ${outcome.status}: signals are recorded only while it is active or paused`);
    case 'recorded':
      // Repeats skipped by the unique keys count as accepted: the extension's retry succeeded.
      return { sessionId, accepted, rejected: rejections.length, rejections };
  }
}
