// The face model's raw output -> the spec's facial frame scores. One implementation for the two
// places the model runs: the extension (in the tester's browser) and the self-hosted engine.

/** A point of the model's 68-point landmark set, in image pixels. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** What the face model found for one face (face-api's detection, landmarks and expressions). */
export interface FaceObservation {
  /** Expression label -> probability, the model's own labels. */
  readonly expressions: Readonly<Record<string, number>>;
  /** The 68 landmarks (iBUG 300-W order: jaw 0-16, nose 27-35, eyes 36-47, mouth 48-67). */
  readonly landmarks: readonly Point[];
  /** Detection confidence 0-1. */
  readonly score: number;
  readonly box: { readonly width: number; readonly height: number };
}

export interface FaceScores {
  /** Canonical label -> confidence, summing to 1. */
  readonly emotions: Record<string, number>;
  readonly attentionScore: number;
  readonly gazeX: number;
  readonly gazeY: number;
}

/**
 * The model's labels renamed to the ones the analysis reads (lib/analysis/detectors/facial.ts):
 * `fearful` is `fear`, `disgusted` is `disgust`, `surprised` is `surprise`.
 */
const CANONICAL_LABELS: Readonly<Record<string, string>> = {
  neutral: 'neutral',
  happy: 'happy',
  sad: 'sad',
  angry: 'angry',
  fearful: 'fear',
  disgusted: 'disgust',
  surprised: 'surprise',
};

/** Head turned this far (as a share of the face's half-width) or more: not looking at the screen. */
const YAW_LIMIT = 0.6;
/** The nose's height between the eyes and the mouth moved this far from its frontal place: looking away. */
const PITCH_LIMIT = 0.35;
/** Where the nose tip sits between the eye line (0) and the mouth line (1) in a frontal face. */
const FRONTAL_PITCH = 0.55;

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** Canonical emotions, normalised to sum to 1 and rounded to 4 decimals. */
export function canonicalEmotions(expressions: Readonly<Record<string, number>>): Record<string, number> {
  const entries = Object.entries(expressions)
    .map(
      ([label, score]) =>
        [CANONICAL_LABELS[label] ?? label, Number.isFinite(score) ? Math.max(0, score) : 0] as const,
    )
    .filter(([label]) => label.length > 0);
  const total = entries.reduce((sum, [, score]) => sum + score, 0);
  if (total <= 0) return { neutral: 1 };
  const emotions: Record<string, number> = {};
  for (const [label, score] of entries) emotions[label] = round4((emotions[label] ?? 0) + score / total);
  return emotions;
}

const mean = (points: readonly Point[]): Point => ({
  x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
  y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
});
const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/**
 * Head pose from the landmarks: `yaw` -1 (turned to the image's left) to 1 (its right), 0 facing
 * the camera, from how far the nose tip sits from each side of the jaw; `pitch` 0 level, negative
 * looking up, positive looking down, from the nose tip's height between the eyes and the mouth.
 */
export function headPose(landmarks: readonly Point[]): { yaw: number; pitch: number } {
  if (landmarks.length < 68) return { yaw: 0, pitch: 0 };
  const nose = landmarks[30]!;
  const toLeft = distance(nose, landmarks[0]!);
  const toRight = distance(nose, landmarks[16]!);
  const yaw = toLeft + toRight > 0 ? (toLeft - toRight) / (toLeft + toRight) : 0;
  const eyes = mean(landmarks.slice(36, 48));
  const mouth = mean(landmarks.slice(48, 68));
  const span = mouth.y - eyes.y;
  const pitch = span > 0 ? (nose.y - eyes.y) / span - FRONTAL_PITCH : 0;
  return { yaw, pitch };
}

/**
 * The frame's scores. Attention is how squarely the face looks at the screen (the camera sits by
 * it): 1 facing it, falling to 0 as the head turns or tilts away, scaled by the detection's
 * confidence. Gaze is the head's direction, not the eyes' (the model tracks no pupils): 0.5, 0.5
 * straight ahead; `gazeX` grows towards the tester's right (the image is mirrored), `gazeY` downwards.
 */
export function faceScores(face: FaceObservation): FaceScores {
  const { yaw, pitch } = headPose(face.landmarks);
  const facing = clamp01(1 - Math.abs(yaw) / YAW_LIMIT) * clamp01(1 - Math.abs(pitch) / PITCH_LIMIT);
  return {
    emotions: canonicalEmotions(face.expressions),
    attentionScore: round4(clamp01(facing * Math.min(1, face.score / 0.5))),
    gazeX: round4(clamp01(0.5 - yaw / 2)),
    gazeY: round4(clamp01(0.5 + pitch)),
  };
}

/** The most prominent face first: the largest, then the most confident. */
export function byProminence<T extends Pick<FaceObservation, 'box' | 'score'>>(faces: readonly T[]): T[] {
  const area = (face: T) => face.box.width * face.box.height;
  return [...faces].sort((a, b) => area(b) - area(a) || b.score - a.score);
}
