import type { Tx } from '../doors.ts';

// What the agents read of a session's signals, in time order.

export function sessionEvents(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('session_events')
    .select(['event_type', 'target_selector', 'occurred_at', 'scroll_y'])
    .where('session_id', '=', sessionId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();
}

export function sessionFrames(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('facial_snapshots')
    .select(['captured_at', 'face_detected', 'confidences', 'attention_score'])
    .where('session_id', '=', sessionId)
    .orderBy('captured_at')
    .orderBy('id')
    .execute();
}

export function sessionVoice(tx: Tx, sessionId: string) {
  return tx
    .selectFrom('voice_segments')
    .select([
      'started_at',
      'ended_at',
      'transcript',
      'sentiment',
      'sentiment_score',
      'hesitation_count',
      'contains_pii',
      'sanitised',
    ])
    .where('session_id', '=', sessionId)
    .orderBy('started_at')
    .orderBy('id')
    .execute();
}
