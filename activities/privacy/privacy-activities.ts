import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { eraseExpiredRecordings } from '../../db/repositories/recordings.ts';
import { flaggedVoiceSegments, saveSanitisedTranscripts } from '../../db/repositories/signals.ts';
import { redactPii } from './sanitiser.ts';

export interface PrivacyActivityDependencies {
  readonly db: Db;
  readonly now?: () => Date;
  /** Days a screen recording is kept after its last chunk (RECORDING_RETENTION_DAYS); default 90. */
  readonly recordingRetentionDays?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Segments sanitised per call at most, so one activity attempt stays short; call again while any remain. */
const SANITISE_BATCH = 500;

/**
 * The sanitising step (spec: PII-flagged voice segments are excluded from AI analysis until
 * sanitised). It redacts each flagged transcript and clears the flag; analysis reads only
 * segments without the flag. The session workflow runs it once the session has ended, before
 * Agent 2. Works through the system door: segments are written by admins only.
 */
export function createPrivacyActivities({
  db,
  now = () => new Date(),
  recordingRetentionDays = 90,
}: PrivacyActivityDependencies) {
  return {
    /**
     * Erases whole recordings kept past their retention, at most `limit` sessions' worth per call
     * (the lifecycle run calls again while a call fills its limit).
     */
    async eraseExpiredRecordings(input: { limit: number }): Promise<{ sessions: number; chunks: number }> {
      const receivedBefore = new Date(now().getTime() - recordingRetentionDays * DAY_MS);
      return asSystem(db, (tx) => eraseExpiredRecordings(tx, receivedBefore, input.limit));
    },

    /** One batch of the session's flagged segments; `more` says another call has some left. */
    async sanitiseVoiceSegments(input: { sessionId: string }): Promise<{ sanitised: number; more: boolean }> {
      return asSystem(db, async (tx) => {
        const segments = await flaggedVoiceSegments(tx, input.sessionId, SANITISE_BATCH);
        const redacted = segments.map(({ id, transcript }) => ({
          id,
          transcript: redactPii(transcript).text,
        }));
        await saveSanitisedTranscripts(tx, redacted, now());
        return { sanitised: segments.length, more: segments.length === SANITISE_BATCH };
      });
    },
  };
}

export type PrivacyActivities = ReturnType<typeof createPrivacyActivities>;
