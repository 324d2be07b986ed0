import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { setStudyStatus } from '../../db/repositories/studies.ts';
import type { StudyStatus } from '../../db/schema.ts';

export interface StudyActivityDependencies {
  readonly db: Db;
}

/** Side effects of the study workflow. The workflow owns the state; these record it. */
export function createStudyActivities({ db }: StudyActivityDependencies) {
  return {
    async recordStudyStatus(input: { jobId: string; status: StudyStatus }): Promise<void> {
      await asSystem(db, (tx) => setStudyStatus(tx, input.jobId, input.status));
    },
  };
}

export type StudyActivities = ReturnType<typeof createStudyActivities>;
