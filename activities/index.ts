import type { Db } from '../db/connection.ts';
import { createSessionActivities } from './sessions/session-activities.ts';
import { createStudyActivities } from './studies/study-activities.ts';

export interface ActivityDependencies {
  readonly db: Db;
}

/** Every activity the worker registers, built over explicit dependencies. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...createStudyActivities(deps),
    ...createSessionActivities(deps),
  };
}
