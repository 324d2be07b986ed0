import assert from 'node:assert/strict';
import type { StudyStatus } from '../../lib/domain.ts';
import {
  nextStudyStatus,
  type StudyStatusAction,
  type StudyTransition,
} from '../../workflows/study-transitions.ts';

/** Every status against every action: where it leads, or the refusal naming the required state. */
const table: Record<StudyStatus, Record<StudyStatusAction, StudyTransition>> = {
  draft: {
    pause: { refusal: 'Study must be active to pause (it is draft)' },
    resume: { refusal: 'Study must be paused to resume (it is draft)' },
    archive: { next: 'archived' },
  },
  active: {
    pause: { next: 'paused' },
    resume: { refusal: 'Study must be paused to resume (it is active)' },
    archive: { next: 'archived' },
  },
  paused: {
    pause: { refusal: 'Study must be active to pause (it is paused)' },
    resume: { next: 'active' },
    archive: { next: 'archived' },
  },
  completed: {
    pause: { refusal: 'Study must be active to pause (it is completed)' },
    resume: { refusal: 'Study must be paused to resume (it is completed)' },
    archive: { next: 'archived' },
  },
  archived: {
    pause: { refusal: 'Study must be active to pause (it is archived)' },
    resume: { refusal: 'Study must be paused to resume (it is archived)' },
    archive: { refusal: 'Study is already archived' },
  },
};

describe('nextStudyStatus', () => {
  for (const [current, actions] of Object.entries(table) as [
    StudyStatus,
    Record<StudyStatusAction, StudyTransition>,
  ][]) {
    for (const [action, expected] of Object.entries(actions) as [StudyStatusAction, StudyTransition][]) {
      const outcome = 'next' in expected ? `leads to ${expected.next}` : `is refused: "${expected.refusal}"`;
      it(`${action} from ${current} ${outcome}`, () => {
        assert.deepEqual(nextStudyStatus(current, action), expected);
      });
    }
  }

  it('only pause and resume move between active and paused; nothing but payment leaves draft for active', () => {
    const statuses = Object.keys(table) as StudyStatus[];
    const actions: StudyStatusAction[] = ['pause', 'resume', 'archive'];
    const intoActive = statuses.flatMap((current) =>
      actions
        .filter((action) => {
          const transition = nextStudyStatus(current, action);
          return 'next' in transition && transition.next === 'active';
        })
        .map((action) => `${current}:${action}`),
    );
    assert.deepEqual(intoActive, ['paused:resume']);
  });
});
