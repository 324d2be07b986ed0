import { Context } from '@temporalio/activity';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import { unpaidPaymentsOfStudy } from '../../db/repositories/payments.ts';
import { confirmedAgainstTarget } from '../../db/repositories/sessions.ts';
import { lockedStudyStatus, setStudyStatus } from '../../db/repositories/studies.ts';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import { studyEvent } from '../../commands/webhooks/webhook-events.ts';
import { announceDeliveries } from '../webhooks/announce.ts';
import type { StudyStatus } from '../../lib/domain.ts';
import { createReconcileActivities } from './reconcile-activities.ts';
import { signalStudyWithStart, type StudySignal } from '../../clients/temporal.ts';

export type { StudySignal };

export interface StudyActivityDependencies {
  readonly db: Db;
  /** Whether this worker moves money (a payment provider or the local one is configured). */
  readonly payoutsEnabled: boolean;
}

/** Side effects of the study workflow. The workflow owns the state; these record it. */
export function createStudyActivities({ db, payoutsEnabled }: StudyActivityDependencies) {
  return {
    ...createReconcileActivities({ db }),

    /**
     * Records the status the workflow moved to; the first move to active (its activation, not a
     * resume) and to completed are announced to the organization's webhook endpoints.
     */
    async recordStudyStatus(input: { studyId: string; status: StudyStatus }): Promise<void> {
      const deliveries = await asSystem(db, async (tx) => {
        const before = await lockedStudyStatus(tx, input.studyId);
        await setStudyStatus(tx, input.studyId, input.status);
        const type =
          before?.status === 'draft' && input.status === 'active'
            ? 'study.activated'
            : input.status === 'completed'
              ? 'study.completed'
              : undefined;
        if (!before || !type) return [];
        const study = { id: input.studyId, organizationId: before.organization_id };
        return recordWebhookEvent(tx, studyEvent(type, study, new Date()));
      });
      await announceDeliveries(deliveries);
    },

    /** Whether the study has as many confirmed sessions as it set out to collect. */
    async studyTargetReached(input: { studyId: string }): Promise<boolean> {
      const { confirmed, target } = await asSystem(db, (tx) => confirmedAgainstTarget(tx, input.studyId));
      return confirmed >= target;
    },

    /** The payments of the study's confirmed sessions that are not paid yet (none without payouts). */
    async paymentsToPayOut(input: { studyId: string }): Promise<string[]> {
      if (!payoutsEnabled) return [];
      const payments = await asSystem(db, (tx) => unpaidPaymentsOfStudy(tx, input.studyId));
      return payments.map((payment) => payment.id);
    },

    /**
     * Sends a signal to the study's workflow with signal-with-start (the worker's own client, its
     * task queue): a study without a workflow gets one from its recorded status instead of the
     * signal being dropped. False when the study is gone or archived (its life is over).
     */
    async signalStudy(input: StudySignal): Promise<boolean> {
      const study = await asSystem(db, (tx) => studyStatusOf(tx, input.studyId));
      if (!study) return false;
      const { client, info } = Context.current();
      const taken = await signalStudyWithStart(client, info.taskQueue, study, input);
      if (!taken)
        Context.current().log.info('The study no longer takes signals', { ...input, status: study.status });
      return taken;
    },
  };
}

export type StudyActivities = ReturnType<typeof createStudyActivities>;
