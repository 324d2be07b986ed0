import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { asSystem, asUser } from '../../db/doors.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import { unpaidPaymentsOfStudy } from '../../db/repositories/payments.ts';
import { payoutWorkflowId } from '../../workflows/messages/payout.ts';
import { payoutWorkflow } from '../../workflows/payout.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/** A study whose sessions were collected: completed, or archived afterwards (testers still get paid). */
const PAYABLE_STATUSES: readonly string[] = ['completed', 'archived'];

/**
 * Starts a payout workflow for every confirmed, unpaid session of the study. A payout already
 * under way is left running (same workflow id); one that gave up is started again, its attempts
 * numbered on from those recorded.
 */
export async function queuePayouts(deps: CommandContext, principal: Principal, jobId: string) {
  const study = await asUser(deps.db, principal.claims, (tx) => studyStatusOf(tx, jobId));
  if (!study) throw notFound('Study');
  if (!PAYABLE_STATUSES.includes(study.status)) {
    throw conflict(`Study must be completed to pay out (it is ${study.status})`);
  }
  const payments = await asSystem(deps.db, (tx) => unpaidPaymentsOfStudy(tx, jobId));
  for (const payment of payments) {
    try {
      await deps.temporal.workflow.start(payoutWorkflow, {
        workflowId: payoutWorkflowId(payment.id),
        taskQueue: serviceTaskQueue(deps),
        args: [{ paymentId: payment.id }],
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return { queued: payments.length };
}
