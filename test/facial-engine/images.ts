import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { MODEL_DIR } from '../../facial-engine/face-model.ts';

/** face-api's own demo photographs, shipped in its package beside the weights. */
const DEMO_DIR = join(MODEL_DIR, '..', 'demo');

/** Three smiling people; the largest face is a broad smile. */
export const smilingFaces = () => readFile(join(DEMO_DIR, 'sample3.jpg'));

/** A plain grey picture: nothing the detector could take for a face. */
export const blankImage = (format: 'png' | 'jpeg' | 'webp' = 'png') =>
  sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a8a8a' } })
    .toFormat(format)
    .toBuffer();
