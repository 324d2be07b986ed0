import type { BarrierMoment, FacialSignal } from '../signals.ts';

const NEGATIVE_EMOTIONS = ['angry', 'anger', 'disgust', 'fear', 'sad', 'sadness', 'confused', 'contempt'];
const CONFUSION_LABELS = ['confused', 'confusion'];
const FRUSTRATION_LEVEL = 0.6;
const CONFUSION_LEVEL = 0.5;
const STRONG_PEAK = 0.85;
const LOW_ATTENTION = 0.3;
/** A single frame is noise; a reaction lasts at least this many consecutive frames. */
const SUSTAINED_FRAMES = 2;

/** Share of negative expressions in a frame (the emotional profile's `avgFrustration`). */
export function negativeShare(frame: FacialSignal): number {
  return NEGATIVE_EMOTIONS.reduce((sum, label) => sum + (frame.confidences[label] ?? 0), 0);
}

/**
 * Confusion in a frame. Engines that name it (`confused`) are read directly; the common
 * seven-label engines have no such label, and their closest, `surprise`, stands in.
 */
export function confusionShare(frame: FacialSignal): number {
  const named = CONFUSION_LABELS.filter((label) => label in frame.confidences);
  if (named.length) return named.reduce((sum, label) => sum + frame.confidences[label]!, 0);
  return frame.confidences.surprise ?? 0;
}

/** Frustration without confusion, so that one confused look is not counted twice. */
export function frustrationShare(frame: FacialSignal): number {
  return negativeShare(frame) - CONFUSION_LABELS.reduce((sum, l) => sum + (frame.confidences[l] ?? 0), 0);
}

/** Frustration and confusion peaks and attention drops: runs of 2+ frames, at the run's first frame. */
export function facialMoments(frames: readonly FacialSignal[]): BarrierMoment[] {
  const moments: BarrierMoment[] = [];
  for (const run of runs(frames, (frame) => frustrationShare(frame) >= FRUSTRATION_LEVEL)) {
    const peak = maxOf(run, frustrationShare);
    moments.push({
      kind: 'frustration_peak',
      at: run[0]!.at,
      target: null,
      severity: peak >= STRONG_PEAK ? 'high' : 'medium',
      evidence: `negative expressions for ${run.length} consecutive frames (peak ${peak.toFixed(2)})`,
    });
  }
  for (const run of runs(frames, (frame) => confusionShare(frame) >= CONFUSION_LEVEL)) {
    const peak = maxOf(run, confusionShare);
    moments.push({
      kind: 'confusion_peak',
      at: run[0]!.at,
      target: null,
      severity: peak >= STRONG_PEAK ? 'high' : 'medium',
      evidence: `a confused expression for ${run.length} consecutive frames (peak ${peak.toFixed(2)})`,
    });
  }
  for (const run of attentionDrops(frames)) {
    const lowest = -maxOf(run, (frame) => -frame.attention);
    moments.push({
      kind: 'attention_drop',
      at: run[0]!.at,
      target: null,
      severity: 'low',
      evidence: `attention below ${LOW_ATTENTION} for ${run.length} consecutive frames (lowest ${lowest.toFixed(2)})`,
    });
  }
  return moments;
}

/** Runs of low attention; their first frames are Agent 1's `attentionDropTimestamps`. */
export function attentionDrops(frames: readonly FacialSignal[]): FacialSignal[][] {
  return runs(frames, (frame) => frame.attention < LOW_ATTENTION);
}

function runs(frames: readonly FacialSignal[], test: (frame: FacialSignal) => boolean): FacialSignal[][] {
  const found: FacialSignal[][] = [];
  let current: FacialSignal[] = [];
  for (const frame of frames) {
    if (test(frame)) {
      current.push(frame);
      continue;
    }
    if (current.length >= SUSTAINED_FRAMES) found.push(current);
    current = [];
  }
  if (current.length >= SUSTAINED_FRAMES) found.push(current);
  return found;
}

function maxOf(frames: readonly FacialSignal[], value: (frame: FacialSignal) => number): number {
  let max = -Infinity;
  for (const frame of frames) max = Math.max(max, value(frame));
  return max;
}
