import { asUser } from '../../db/doors.ts';
import { studyHasReports } from '../../db/repositories/reports.ts';
import { findStudy, lockStudy, updateStudyRow, type StudyRecord } from '../../db/repositories/studies.ts';
import type { StudyStatus } from '../../lib/domain.ts';
import { INVALID_STUDY_TRANSITION } from '../../lib/failures.ts';
import { changeStudyStatusUpdate, studyWorkflowId } from '../../workflows/messages/study.ts';
import { nextStudyStatus, type StudyStatusAction } from '../../workflows/study-transitions.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { updateOrConflict } from '../update-or-conflict.ts';
import { ensureStudyWorkflow } from './create-study.ts';
import type { UpdateStudyInput } from './study.schema.ts';
import type { CommandContext } from '../context.ts';

const ACTION_FOR: Readonly<Record<NonNullable<UpdateStudyInput['status']>, StudyStatusAction>> = {
  paused: 'pause',
  active: 'resume',
  archived: 'archive',
};
const TONE_FIXED = 'Tone profile is fixed once Agent 3 has run for the study';

/**
 * Edits a draft's wording and the tone profile (until Agent 3 has written a report of the study)
 * directly; status changes go to the study workflow as an update, which re-checks the transition
 * and answers once the new status is recorded. Every precondition is judged before anything is
 * written, and one that does not hold answers 409 naming it.
 */
export async function updateStudy(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: UpdateStudyInput,
): Promise<StudyRecord> {
  const record = await asUser(deps.db, principal.claims, (tx) => findStudy(tx, id));
  if (!record) throw notFound('Study');
  const { study } = record;
  const wording = input.title !== undefined || input.description !== undefined;
  const tone = input.toneProfile !== undefined && input.toneProfile !== study.tone_profile;
  const action = input.status === undefined ? undefined : ACTION_FOR[input.status];

  if (wording && study.status !== 'draft') {
    throw conflict(`Title and description can change only while the study is draft (it is ${study.status})`);
  }
  if (action) {
    const transition = nextStudyStatus(study.status, action);
    if ('refusal' in transition) throw conflict(transition.refusal);
  }
  if (wording || tone) {
    await asUser(deps.db, principal.claims, async (tx) => {
      // Locked, so Agent 3's first report of the study (which takes a share lock on the row, 0022)
      // either lands before this looks for reports or is written in the new tone.
      await lockStudy(tx, id);
      if (tone && (await studyHasReports(tx, id))) throw conflict(TONE_FIXED);
      await updateStudyRow(tx, id, {
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(tone ? { tone_profile: input.toneProfile } : {}),
        updated_at: deps.now(),
      });
    });
  }
  if (action) await changeStatus(deps, { id, status: study.status }, action);

  return (await asUser(deps.db, principal.claims, (tx) => findStudy(tx, id)))!;
}

/**
 * Sends the change to the study's workflow, first starting it from the recorded status when the
 * study has none (a study stored without one, like the seeded demo study), so the update has a
 * workflow to reach instead of failing with a 500.
 */
async function changeStatus(
  deps: CommandContext,
  study: { id: string; status: StudyStatus },
  action: StudyStatusAction,
): Promise<void> {
  // Only a live study's (draft to completed) is started; an archived study's life is over.
  await ensureStudyWorkflow(deps, study);
  await updateOrConflict(INVALID_STUDY_TRANSITION, () =>
    deps.temporal.workflow
      .getHandle(studyWorkflowId(study.id))
      .executeUpdate(changeStudyStatusUpdate, { args: [action] }),
  );
}
