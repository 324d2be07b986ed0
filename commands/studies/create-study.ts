import { estimateLaunchDate } from '../../lib/launch-estimate.ts';
import { ensureStudyWorkflow as startStudyWorkflowOnce } from '../../clients/temporal.ts';
import { unreachableDependency } from '../../clients/unavailable.ts';
import { asUser } from '../../db/doors.ts';
import {
  findStudyByIdempotencyKey,
  insertStudy,
  variantLabelsOf,
  type NewStudy,
  type NewVariant,
  type StudyRow,
} from '../../db/repositories/studies.ts';
import type { Principal } from '../principal.ts';
import { forbidden, invalid } from '../../lib/errors.ts';
import type { CreateStudyInput } from './study.schema.ts';
import { requestHashOf } from './request-hash.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/**
 * Stores the study with its tasks and variants, then makes sure its workflow runs. A retry with
 * the same Idempotency-Key returns the stored study (and still ensures the workflow, in case the
 * first attempt failed between commit and start); the same key with another body is refused.
 */
export async function createStudy(
  deps: CommandContext,
  principal: Principal,
  input: CreateStudyInput,
  idempotencyKey: string | undefined,
) {
  const organizationId = principal.organizationId;
  if (!organizationId) throw forbidden('Creating a study requires membership of an organization');
  const requestHash = idempotencyKey === undefined ? null : requestHashOf(input);
  const createdAt = deps.now();

  const { row, labels, replayed } = await asUser(deps.db, principal.claims, async (tx) => {
    const study = studyRow(
      input,
      organizationId,
      principal.claims.sub,
      createdAt,
      idempotencyKey ?? null,
      requestHash,
    );
    const inserted = await insertStudy(tx, study, tasksOf(input), variantsOf(input));
    if (inserted) return { row: inserted, labels: variantsOf(input).map((v) => v.label), replayed: false };
    const existing = (await findStudyByIdempotencyKey(tx, organizationId, idempotencyKey!))!;
    if (existing.request_hash !== requestHash) {
      throw invalid('Idempotency-Key: already used with a different request body');
    }
    const stored = await variantLabelsOf(tx, [existing.id]);
    return { row: existing, labels: stored.get(existing.id) ?? [], replayed: true };
  });

  try {
    await ensureStudyWorkflow(deps, row);
  } catch (error) {
    // Stored, its workflow not started because Temporal is away: the study exists, so the answer
    // says so (a 503 would invite a second one). The lifecycle reconciler starts the workflow once
    // Temporal is back, as does anything that reaches the study first (a retry with this key too).
    if (unreachableDependency(error) !== 'temporal') throw error;
  }
  return { row, variantLabels: labels, replayed };
}

/**
 * Starts the study's workflow unless one runs or ran under its id, from the status the row
 * records: a new study's draft, or where a study stored without a workflow stands.
 */
export function ensureStudyWorkflow(
  ctx: Pick<CommandContext, 'temporal' | 'config'>,
  row: Pick<StudyRow, 'id' | 'status'>,
): Promise<void> {
  return startStudyWorkflowOnce(ctx.temporal, serviceTaskQueue(ctx), row);
}

function studyRow(
  input: CreateStudyInput,
  organizationId: string,
  createdBy: string,
  createdAt: Date,
  idempotencyKey: string | null,
  requestHash: string | null,
): NewStudy {
  return {
    organization_id: organizationId,
    created_by: createdBy,
    title: input.title,
    description: input.description,
    prototype_url: input.prototypeUrl,
    prototype_type: input.prototypeType,
    target_countries: [...new Set(input.targeting.countries)],
    target_age_min: input.targeting.ageRange?.min ?? null,
    target_age_max: input.targeting.ageRange?.max ?? null,
    target_devices: [...new Set(input.targeting.devices)],
    target_languages: [...new Set(input.targeting.languages)],
    tester_count: input.targeting.testerCount,
    ab_test_enabled: input.abTest?.enabled ?? false,
    compensation_currency: input.compensation.currency,
    compensation_amount: input.compensation.amount,
    compensation_type: input.compensation.type,
    require_think_aloud: input.settings.requireThinkAloud,
    record_screen: input.settings.recordScreen,
    record_facial: input.settings.recordFacial,
    record_voice: input.settings.recordVoice,
    max_duration_minutes: input.settings.maxDurationMinutes,
    reminder_after_hours: input.settings.reminderAfterHours ?? null,
    tone_profile: input.toneProfile,
    estimated_launch_date: estimateLaunchDate(createdAt, input.targeting.testerCount),
    idempotency_key: idempotencyKey,
    request_hash: requestHash,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

function tasksOf(input: CreateStudyInput) {
  return input.tasks.map((task) => ({
    position: task.order,
    title: task.title,
    description: task.description,
    success_criteria: task.successCriteria ?? null,
  }));
}

/** Variants of an enabled A/B test; without a split ratio every variant gets an equal share. */
function variantsOf(input: CreateStudyInput): NewVariant[] {
  const test = input.abTest;
  if (!test?.enabled) return [];
  const equalShare = 1 / test.variants.length;
  return test.variants.map((variant, index) => ({
    position: index + 1,
    label: variant.label,
    description: variant.description,
    split_ratio: (test.splitRatio?.[variant.label] ?? equalShare).toFixed(6),
  }));
}
