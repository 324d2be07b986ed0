import { z } from 'zod';
import { DEVICES, PROTOTYPE_TYPES, STUDY_STATUSES, TONE_PROFILES } from '../../lib/domain.ts';

export const createStudyResponse = z.object({
  jobId: z.uuid(),
  title: z.string(),
  status: z.enum(STUDY_STATUSES),
  testerCount: z.number().int(),
  abTestEnabled: z.boolean(),
  variants: z.array(z.string()),
  estimatedLaunchDate: z.iso.datetime(),
  createdAt: z.iso.datetime(),
});

export const studyResponse = z.object({
  jobId: z.uuid(),
  title: z.string(),
  description: z.string(),
  prototypeUrl: z.string(),
  prototypeType: z.enum(PROTOTYPE_TYPES),
  status: z.enum(STUDY_STATUSES),
  tasks: z.array(
    z.object({
      title: z.string(),
      description: z.string(),
      successCriteria: z.string().nullable(),
      order: z.number(),
    }),
  ),
  targeting: z.object({
    countries: z.array(z.string()),
    ageRange: z.object({ min: z.number(), max: z.number() }).nullable(),
    devices: z.array(z.enum(DEVICES)),
    languages: z.array(z.string()),
    testerCount: z.number().int(),
  }),
  abTest: z.object({
    enabled: z.boolean(),
    variants: z.array(z.object({ label: z.string(), description: z.string() })),
    splitRatio: z.record(z.string(), z.number()),
  }),
  compensation: z.object({ currency: z.string(), amount: z.number(), type: z.literal('flat') }),
  settings: z.object({
    requireThinkAloud: z.boolean(),
    recordScreen: z.boolean(),
    recordFacial: z.boolean(),
    recordVoice: z.boolean(),
    maxDurationMinutes: z.number().int(),
    reminderAfterHours: z.number().int().nullable(),
  }),
  toneProfile: z.enum(TONE_PROFILES),
  notesConfirmed: z.boolean(),
  estimatedLaunchDate: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type Study = z.output<typeof studyResponse>;

export const studyIdParams = z.object({ id: z.uuid() });
