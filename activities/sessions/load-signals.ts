import type { Tx } from '../../db/doors.ts';
import { sessionEvents, sessionFrames, sessionVoice } from '../../db/repositories/session-analysis.ts';
import type { FacialSignal, SessionSignals } from '../analysis/signals.ts';

/** A session's stored signals as the analysis reads them. */
export async function loadSignals(tx: Tx, sessionId: string): Promise<SessionSignals> {
  const [events, facial, voice] = await Promise.all([
    sessionEvents(tx, sessionId),
    loadFrames(tx, sessionId),
    sessionVoice(tx, sessionId),
  ]);
  return {
    events: events.map((row) => ({
      type: row.event_type,
      target: row.target_selector,
      at: row.occurred_at,
      scrollY: row.scroll_y,
    })),
    facial,
    voice: voice.map((row) => ({
      startedAt: row.started_at,
      endedAt: row.ended_at,
      transcript: row.transcript,
      sentiment: row.sentiment,
      sentimentScore: row.sentiment_score,
      hesitations: row.hesitation_count ?? 0,
      containsPii: row.contains_pii,
      sanitised: row.sanitised,
    })),
  };
}

export async function loadFrames(tx: Tx, sessionId: string): Promise<FacialSignal[]> {
  const rows = await sessionFrames(tx, sessionId);
  return rows.map((row) => ({
    at: row.captured_at,
    faceDetected: row.face_detected,
    confidences: row.confidences,
    attention: row.attention_score,
  }));
}
