import { z, type ZodType } from 'zod';
import { EVENT_TYPES, SENTIMENTS } from '../../lib/domain.ts';
import { MAX_TRANSCRIPT_CHARS } from '../../lib/voice/speech-pieces.ts';
import { float4, float8, int4, isoTimestamp, storableText } from '../../lib/validation/storable.ts';
import { MAX_CHUNK_BYTES, readChunk, type MeasuredChunk } from '../../lib/recording/chunk.ts';

// The spec's ingestion item tables ("Ingestion items"), one schema per kind. Each item of a batch
// is parsed alone, so these schemas also turn what passes into exactly what the table stores.

/** Emotion confidences must sum to 1.0 within this (spec: "approximately 1.0"). */
export const EMOTION_SUM_TOLERANCE = 0.05;

/** Base64 of one snapshot image: 2 MB decoded at most. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil((2 * 1024 * 1024) / 3) * 4;

/** Signals are recorded from 1970 on, as the extension's clock reads them. */
const timestamp = isoTimestamp({ minYear: 1970 });

const count = int4(0);

/** A score stored in a `real` column. */
const unit = float4(0, 1);

export const eventItem = z.object({
  eventType: z.enum(EVENT_TYPES),
  targetSelector: storableText(1000).min(1),
  timestamp,
  x: float8().optional(),
  y: float8().optional(),
  scrollY: float8().optional(),
  inputLength: count.optional(),
  viewport: z.object({ width: int4(1), height: int4(1) }).optional(),
});

export type EventItem = z.output<typeof eventItem>;

const emotions = z
  // Kept in jsonb, which holds any JSON number.
  .record(storableText(50).min(1), float8('jsonb').min(0).max(1))
  .refine((value) => Object.keys(value).length > 0, 'must name at least one emotion')
  .refine((value) => Object.keys(value).length <= 50, 'must name at most 50 emotions')
  .refine(
    (value) =>
      Math.abs(Object.values(value).reduce((sum, score) => sum + score, 0) - 1) <= EMOTION_SUM_TOLERANCE,
    `confidences must sum to 1.0 (within ${EMOTION_SUM_TOLERANCE})`,
  );

export const facialItem = z.object({
  frameIndex: count,
  timestamp,
  emotions,
  attentionScore: unit,
  gazeX: unit.optional(),
  gazeY: unit.optional(),
});

export type FacialItem = z.output<typeof facialItem>;

/** A snapshot for the facial engine: the frame's own measures plus the image, instead of emotions. */
export const snapshotItem = facialItem.omit({ emotions: true }).extend({
  image: z.base64().min(1).max(MAX_IMAGE_BASE64_CHARS),
});

export type SnapshotItem = z.output<typeof snapshotItem>;

/**
 * A frame in which the extension's face model found no face: stored with `face_detected = false`
 * and left out of analysis, as the engine's "no face" is (docs/decisions/ingestion.md, "Pre-processed frames on the test-token route").
 */
export const noFaceFrame = facialItem.omit({ emotions: true }).extend({
  faceDetected: z.literal(false),
});

export type NoFaceFrame = z.output<typeof noFaceFrame>;

/**
 * A chunk of the session's DOM recording (`recordScreen`): its number from 0 and the rrweb events,
 * gzip-compressed, in base64. Opened and checked here (lib/recording/chunk.ts).
 */
export const recordingChunkItem = z.object({
  chunk: int4(0).describe(
    "The chunk's number in the session's recording, from 0; a chunk sent again is skipped",
  ),
  recording: z
    .base64()
    .min(1)
    .max(Math.ceil(MAX_CHUNK_BYTES / 3) * 4)
    .describe(
      `rrweb events as a JSON array, gzip-compressed, in base64: at most ${MAX_CHUNK_BYTES} bytes compressed; every field's value masked`,
    ),
});

export interface RecordingChunkItem {
  readonly chunk: number;
  readonly measured: MeasuredChunk;
}

const recordingChunk = recordingChunkItem.transform((item, ctx): RecordingChunkItem => {
  let reading: ReturnType<typeof readChunk>;
  try {
    reading = readChunk(Buffer.from(item.recording, 'base64'));
  } catch {
    // Whatever a crafted chunk makes the reader throw is this item's rejection, never the request's 500.
    reading = { ok: false, reason: 'could not be read as rrweb events' };
  }
  if (!reading.ok) {
    ctx.issues.push({ code: 'custom', message: reading.reason, input: item.recording, path: ['recording'] });
    return z.NEVER;
  }
  return { chunk: item.chunk, measured: reading.chunk };
});

/**
 * `POST /api/sessions/:id/snapshots` takes four kinds of item, told apart by their fields: an image
 * for the engine (`image`), a frame analysed on the tester's machine (the spec's facial frame item),
 * a frame without a face (`faceDetected: false`) and a chunk of the DOM recording (`recording`).
 */
export type SnapshotRouteItem =
  | { readonly kind: 'image'; readonly item: SnapshotItem }
  | { readonly kind: 'frame'; readonly item: FacialItem }
  | { readonly kind: 'no_face'; readonly item: NoFaceFrame }
  | { readonly kind: 'recording'; readonly item: RecordingChunkItem };

const hasField = (item: unknown, field: string) => typeof item === 'object' && item !== null && field in item;

/** The schema an item of the snapshots route is judged by, picked by its fields. */
export function snapshotRouteSchema(item: unknown): ZodType<SnapshotRouteItem> {
  if (hasField(item, 'recording'))
    return recordingChunk.transform((parsed) => ({ kind: 'recording' as const, item: parsed }));
  // An item with none of the others' own fields is read as an image snapshot missing its image.
  if (hasField(item, 'image') || !(hasField(item, 'emotions') || hasField(item, 'faceDetected')))
    return snapshotItem.transform((parsed) => ({ kind: 'image' as const, item: parsed }));
  if (hasField(item, 'faceDetected'))
    return noFaceFrame.transform((parsed) => ({ kind: 'no_face' as const, item: parsed }));
  return facialItem.transform((parsed) => ({ kind: 'frame' as const, item: parsed }));
}

/** What the OpenAPI document shows for one item of the snapshots route. */
export const snapshotRouteItem = z.union([snapshotItem, facialItem, noFaceFrame, recordingChunkItem]);

export const voiceItem = z
  .object({
    segmentIndex: count,
    startTime: timestamp,
    endTime: timestamp,
    transcript: storableText(MAX_TRANSCRIPT_CHARS),
    sentiment: z.enum(SENTIMENTS),
    sentimentScore: float4(-1, 1),
    hesitationCount: count.optional(),
    wordsPerMinute: float4(0).optional(),
  })
  .refine((item) => Date.parse(item.endTime) >= Date.parse(item.startTime), {
    path: ['endTime'],
    message: 'must not be before startTime',
  });

export type VoiceItem = z.output<typeof voiceItem>;
