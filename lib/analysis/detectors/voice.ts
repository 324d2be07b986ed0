import type { BarrierMoment, VoiceSignal } from '../signals.ts';

const NEGATIVE_SPEECH = -0.5;
const VERY_NEGATIVE_SPEECH = -0.8;
const HESITATIONS = 3;

/**
 * What the tester said (segments free of PII only): negative sentiment is verbal frustration, more
 * severe when very negative or spoken with hesitation; hesitant speech alone is a milder sign.
 */
export function voiceMoments(segments: readonly VoiceSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  for (const segment of segments) {
    const quote =
      segment.transcript.length > 120 ? `${segment.transcript.slice(0, 117)}...` : segment.transcript;
    const hesitant = segment.hesitations >= HESITATIONS;
    if (segment.sentiment === 'negative' && segment.sentimentScore <= NEGATIVE_SPEECH) {
      moments.push({
        kind: 'verbal_frustration',
        at: segment.startedAt,
        target: null,
        severity: segment.sentimentScore <= VERY_NEGATIVE_SPEECH || hesitant ? 'high' : 'medium',
        evidence: `the tester said "${quote}" (sentiment ${segment.sentimentScore.toFixed(2)}${
          hesitant ? `, ${segment.hesitations} hesitations` : ''
        })`,
      });
    } else if (hesitant) {
      moments.push({
        kind: 'hesitation',
        at: segment.startedAt,
        target: null,
        severity: 'low',
        evidence: `${segment.hesitations} hesitations while saying "${quote}"`,
      });
    }
  }
  return moments;
}
