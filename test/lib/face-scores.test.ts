import assert from 'node:assert/strict';
import {
  byProminence,
  canonicalEmotions,
  faceScores,
  headPose,
  type Point,
} from '../../lib/facial/face-scores.ts';

/** A frontal face's 68 landmarks, symmetric about x = 100: jaw, nose, eyes and mouth where they sit. */
function frontalLandmarks(noseShift = 0, noseDrop = 0): Point[] {
  const points: Point[] = Array.from({ length: 68 }, () => ({ x: 100, y: 100 }));
  for (let i = 0; i <= 16; i++)
    points[i] = { x: 40 + (i * 120) / 16, y: 90 + Math.sin((i / 16) * Math.PI) * 70 };
  for (let i = 36; i < 42; i++) points[i] = { x: 70 + (i - 36) * 2, y: 80 };
  for (let i = 42; i < 48; i++) points[i] = { x: 120 + (i - 42) * 2, y: 80 };
  for (let i = 48; i < 68; i++) points[i] = { x: 85 + (i - 48) * 1.5, y: 140 };
  points[30] = { x: 100 + noseShift, y: 80 + 0.55 * 60 + noseDrop };
  return points;
}

describe('face scores (lib/facial/face-scores.ts)', () => {
  it("renames the model's labels to the analysis's and normalises them to 1", () => {
    const emotions = canonicalEmotions({
      neutral: 0.2,
      fearful: 0.2,
      disgusted: 0.2,
      surprised: 0.2,
      happy: 0.4,
    });
    assert.deepEqual(Object.keys(emotions).sort(), ['disgust', 'fear', 'happy', 'neutral', 'surprise']);
    assert.equal(emotions.happy, 0.3333);
    assert.equal(canonicalEmotions({}).neutral, 1);
    assert.equal(canonicalEmotions({ happy: Number.NaN, sad: 0 }).neutral, 1);
  });

  it('reads a frontal face as attentive and looking straight ahead', () => {
    const scores = faceScores({
      expressions: { happy: 1 },
      landmarks: frontalLandmarks(),
      score: 0.9,
      box: { width: 1, height: 1 },
    });
    assert.ok(scores.attentionScore > 0.95, String(scores.attentionScore));
    assert.ok(
      Math.abs(scores.gazeX - 0.5) < 0.02 && Math.abs(scores.gazeY - 0.5) < 0.02,
      JSON.stringify(scores),
    );
  });

  it('loses attention as the head turns or tilts away, and moves the gaze with it', () => {
    const turned = headPose(frontalLandmarks(45));
    assert.ok(turned.yaw > 0.3, JSON.stringify(turned));
    const away = faceScores({
      expressions: { neutral: 1 },
      landmarks: frontalLandmarks(55),
      score: 0.9,
      box: { width: 1, height: 1 },
    });
    assert.ok(away.attentionScore < 0.2, String(away.attentionScore));
    assert.ok(away.gazeX < 0.4, String(away.gazeX));
    const down = faceScores({
      expressions: { neutral: 1 },
      landmarks: frontalLandmarks(0, 22),
      score: 0.9,
      box: { width: 1, height: 1 },
    });
    assert.ok(down.attentionScore < 0.1 && down.gazeY > 0.8, JSON.stringify(down));
  });

  it('puts the largest face first', () => {
    const faces = [
      { box: { width: 10, height: 10 }, score: 0.9 },
      { box: { width: 30, height: 30 }, score: 0.6 },
    ];
    assert.deepEqual(byProminence(faces)[0], faces[1]);
  });
});
