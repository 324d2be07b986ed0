import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { unpaidPaymentsOfStudy } from '../../db/repositories/payments.ts';
import { setStudyStatus } from '../../db/repositories/studies.ts';
import type { StudyStatus } from '../../db/schema.ts';

export interface StudyActivityDependencies {
  readonly db: Db;
  /** Whether this worker moves money (a payment provider or the local one is configured). */
  readonly payoutsEnabled: boolean;
}

/** Side effects of the study workflow. The workflow owns the state; these record it. */
export function createStudyActivities({ db, payoutsEnabled }: StudyActivityDependencies) {
  return {
    async recordStudyStatus(input: { jobId: string; status: StudyStatus }): Promise<void> {
      await asSystem(db, (tx) => setStudyStatus(tx, input.jobId, input.status));
    },

    /** The payments of the study's confirmed sessions that are not paid yet (none without payouts). */
    async paymentsToPayOut(input: { jobId: string }): Promise<string[]> {
      if (!payoutsEnabled) return [];
      const payments = await asSystem(db, (tx) => unpaidPaymentsOfStudy(tx, input.jobId));
      return payments.map((payment) => payment.id);
    },
  };
}

export type StudyActivities = ReturnType<typeof createStudyActivities>;
