import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { MODEL_DIR } from '../../../facial-engine/face-model.ts';

const WIDTH = 640;
const HEIGHT = 480;
/** Chromium plays the file in a loop; a still picture needs only a few frames. */
const FRAMES = 5;

/**
 * A Y4M video (what Chromium's `--use-file-for-fake-video-capture` plays) of a still RGB picture:
 * 4:2:0 planes converted with the BT.601 full-range matrix the C420jpeg tag names.
 */
async function writeY4m(path: string, picture: Sharp): Promise<string> {
  const { data } = await picture
    .resize(WIDTH, HEIGHT, { fit: 'cover' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const y = Buffer.alloc(WIDTH * HEIGHT);
  const u = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  const v = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2));
  const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));
  for (let row = 0; row < HEIGHT; row++) {
    for (let col = 0; col < WIDTH; col++) {
      const at = (row * WIDTH + col) * 3;
      const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
      y[row * WIDTH + col] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const chroma = (row / 2) * (WIDTH / 2) + col / 2;
        u[chroma] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        v[chroma] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F5:1 Ip A1:1 C420jpeg\n`);
  await writeFile(path, Buffer.concat([header, ...Array.from({ length: FRAMES }, () => frame)]));
  return path;
}

/** A smiling face filling a webcam's frame: a close crop of face-api's own demo photograph. */
export const smilingFaceVideo = (dir: string) =>
  writeY4m(
    join(dir, 'smiling-face.y4m'),
    sharp(join(MODEL_DIR, '..', 'demo', 'sample3.jpg')).extract({
      left: 860,
      top: 120,
      width: 620,
      height: 465,
    }),
  );

/** An empty grey room: no face anywhere. */
export const blankVideo = (dir: string) =>
  writeY4m(
    join(dir, 'blank.y4m'),
    sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#8a8a8a' } }),
  );
