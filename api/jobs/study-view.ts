import type { StudyRecord, StudyRow } from '../../db/repositories/studies.ts';
import type { Study } from './jobs.schema.ts';

/** The spec's create response: exactly its eight fields. */
export function toCreatedStudy(row: StudyRow, variantLabels: readonly string[]) {
  return {
    jobId: row.id,
    title: row.title,
    status: row.status,
    testerCount: row.tester_count,
    abTestEnabled: row.ab_test_enabled,
    variants: [...variantLabels],
    estimatedLaunchDate: row.estimated_launch_date.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

export function toStudy({ study, tasks, variants }: StudyRecord): Study {
  return {
    jobId: study.id,
    title: study.title,
    description: study.description,
    prototypeUrl: study.prototype_url,
    prototypeType: study.prototype_type,
    status: study.status,
    tasks: tasks.map((task) => ({
      title: task.title,
      description: task.description,
      successCriteria: task.success_criteria,
      order: task.position,
    })),
    targeting: {
      countries: study.target_countries,
      ageRange:
        study.target_age_min === null || study.target_age_max === null
          ? null
          : { min: study.target_age_min, max: study.target_age_max },
      devices: study.target_devices,
      languages: study.target_languages,
      testerCount: study.tester_count,
    },
    abTest: {
      enabled: study.ab_test_enabled,
      variants: variants.map((variant) => ({ label: variant.label, description: variant.description })),
      splitRatio: Object.fromEntries(variants.map((variant) => [variant.label, Number(variant.split_ratio)])),
    },
    compensation: {
      currency: study.compensation_currency,
      amount: Number(study.compensation_amount),
      type: study.compensation_type,
    },
    settings: {
      requireThinkAloud: study.require_think_aloud,
      recordScreen: study.record_screen,
      recordFacial: study.record_facial,
      recordVoice: study.record_voice,
      maxDurationMinutes: study.max_duration_minutes,
      reminderAfterHours: study.reminder_after_hours,
    },
    toneProfile: study.tone_profile,
    notesConfirmed: study.notes_confirmed,
    estimatedLaunchDate: study.estimated_launch_date.toISOString(),
    createdAt: study.created_at.toISOString(),
    updatedAt: study.updated_at.toISOString(),
  };
}
