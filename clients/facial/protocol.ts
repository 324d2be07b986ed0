import { z } from 'zod';

// The wire protocol of the self-hosted facial analysis engine (see README.md beside this file).

export const ANALYZE_PATH = '/analyze';

const label = z
  .string()
  .min(1)
  .max(50)
  .refine((value) => !value.includes('\u0000'));

const face = z.object({
  /** Emotion label -> confidence 0-1. */
  emotions: z.record(label, z.number().min(0).max(1)),
  /** Action Unit (FACS, "AU04") -> intensity. */
  actionUnits: z.record(label, z.number()).default({}),
});

export const analyzeResponse = z.object({
  /** Faces found in the image, most prominent first; empty when there is none. */
  faces: z.array(face),
});

export interface AnalyzeRequest {
  /** The image (JPEG, PNG or WebP) in standard base64, without a data: prefix. */
  readonly image: string;
}
