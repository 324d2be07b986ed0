import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { asUser } from '../../db/doors.ts';
import { findStudy, type StudyRecord } from '../../db/repositories/studies.ts';
import {
  changeStudyStatusUpdate,
  INVALID_TRANSITION,
  nextStudyStatus,
  studyWorkflowId,
  type StudyStatusAction,
} from '../../workflows/study.ts';
import type { Principal } from '../auth/principal.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { StudyCommandDependencies } from './create-study.ts';
import type { UpdateStudyInput } from './jobs.schema.ts';

const ACTION_FOR: Readonly<Record<NonNullable<UpdateStudyInput['status']>, StudyStatusAction>> = {
  paused: 'pause',
  active: 'resume',
  archived: 'archive',
};

/**
 * Edits a draft's wording directly; status changes go to the study workflow as an update, which
 * re-checks the transition and answers once the new status is recorded. A transition that does not
 * apply answers 409 naming the state it needs.
 */
export async function updateStudy(
  deps: StudyCommandDependencies,
  principal: Principal,
  id: string,
  input: UpdateStudyInput,
): Promise<StudyRecord> {
  const record = await asUser(deps.db, principal.claims, (tx) => findStudy(tx, id));
  if (!record) throw notFound('Study');
  const { study } = record;

  if (input.title !== undefined || input.description !== undefined) {
    if (study.status !== 'draft') {
      throw conflict(
        `Title and description can change only while the study is draft (it is ${study.status})`,
      );
    }
    await asUser(deps.db, principal.claims, (tx) =>
      tx
        .updateTable('studies')
        .set({
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          updated_at: deps.now(),
        })
        .where('id', '=', id)
        .execute(),
    );
  }

  if (input.status !== undefined) {
    const action = ACTION_FOR[input.status];
    const transition = nextStudyStatus(study.status, action);
    if ('refusal' in transition) throw conflict(transition.refusal);
    try {
      await deps.temporal.workflow
        .getHandle(studyWorkflowId(id))
        .executeUpdate(changeStudyStatusUpdate, { args: [action] });
    } catch (error) {
      if (
        error instanceof WorkflowUpdateFailedError &&
        error.cause instanceof ApplicationFailure &&
        error.cause.type === INVALID_TRANSITION
      ) {
        throw conflict(error.cause.message);
      }
      throw error;
    }
  }

  return (await asUser(deps.db, principal.claims, (tx) => findStudy(tx, id)))!;
}
