import { dominantEmotion } from '../../lib/dominant-emotion.ts';
import type { FacialAnalysis } from '../../clients/facial/facial-engine-client.ts';
import { containsPii } from '../../lib/pii-detector.ts';
import type { EventRow, FacialRow, VoiceRow } from '../../db/repositories/signals.ts';
import type { EventItem, FacialItem, NoFaceFrame, SnapshotItem, VoiceItem } from './items.schema.ts';

// Validated items -> the rows the signal tables store.

export const toEventRow = (item: EventItem): EventRow => ({
  eventType: item.eventType,
  targetSelector: item.targetSelector,
  occurredAt: item.timestamp,
  x: item.x ?? null,
  y: item.y ?? null,
  scrollY: item.scrollY ?? null,
  inputLength: item.inputLength ?? null,
  viewportWidth: item.viewport?.width ?? null,
  viewportHeight: item.viewport?.height ?? null,
});

/** A frame the extension analysed itself: its emotions are the engine's answer, so a face was seen. */
export const toFacialRow = (item: FacialItem): FacialRow => ({
  frameIndex: item.frameIndex,
  capturedAt: item.timestamp,
  faceDetected: true,
  emotion: dominantEmotion(item.emotions) ?? null,
  confidences: item.emotions,
  actionUnits: {},
  attentionScore: item.attentionScore,
  gazeX: item.gazeX ?? null,
  gazeY: item.gazeY ?? null,
});

/** A frame without a face, as the engine's "no face" is stored: out of analysis. */
export const toNoFaceRow = (item: NoFaceFrame): FacialRow => ({
  frameIndex: item.frameIndex,
  capturedAt: item.timestamp,
  faceDetected: false,
  emotion: null,
  confidences: {},
  actionUnits: {},
  attentionScore: item.attentionScore,
  gazeX: item.gazeX ?? null,
  gazeY: item.gazeY ?? null,
});

/** A snapshot with the engine's answer; without a face or an answer it is stored unanalysed. */
export function toSnapshotRow(item: SnapshotItem, analysis: FacialAnalysis): FacialRow {
  const face = analysis.kind === 'face' ? analysis : undefined;
  return {
    frameIndex: item.frameIndex,
    capturedAt: item.timestamp,
    faceDetected: face !== undefined,
    emotion: face?.emotion ?? null,
    confidences: face?.confidences ?? {},
    actionUnits: face?.actionUnits ?? {},
    attentionScore: item.attentionScore,
    gazeX: item.gazeX ?? null,
    gazeY: item.gazeY ?? null,
  };
}

/** Segments whose transcript holds PII are stored flagged, out of AI analysis until sanitised. */
export const toVoiceRow = (item: VoiceItem): VoiceRow => ({
  segmentIndex: item.segmentIndex,
  startedAt: item.startTime,
  endedAt: item.endTime,
  transcript: item.transcript,
  sentiment: item.sentiment,
  sentimentScore: item.sentimentScore,
  hesitationCount: item.hesitationCount ?? null,
  wordsPerMinute: item.wordsPerMinute ?? null,
  containsPii: containsPii(item.transcript),
});
