// The study's status changes as a pure function: the workflow judges every change with it, and
// the API judges the recorded status with the same one to answer 409 before reaching the workflow.
import type { StudyStatus } from '../lib/domain.ts';

export type StudyStatusAction = 'pause' | 'resume' | 'archive';

export type StudyTransition = { readonly next: StudyStatus } | { readonly refusal: string };

/** Where an action leads from the current status, or a refusal naming the state it requires. */
export function nextStudyStatus(current: StudyStatus, action: StudyStatusAction): StudyTransition {
  if (action === 'archive') {
    return current === 'archived' ? { refusal: 'Study is already archived' } : { next: 'archived' };
  }
  if (action === 'pause') {
    return current === 'active'
      ? { next: 'paused' }
      : { refusal: `Study must be active to pause (it is ${current})` };
  }
  return current === 'paused'
    ? { next: 'active' }
    : { refusal: `Study must be paused to resume (it is ${current})` };
}
