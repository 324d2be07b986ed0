import { WorkflowNotFoundError, type SignalDefinition } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import {
  approveTester,
  liveSessionsOf,
  lockTesterStanding,
  recordTesterStatusChange,
  runningOffersOf,
  setTesterAccountStatus,
} from '../../db/repositories/tester-profiles.ts';
import type { TesterStatus } from '../../lib/domain.ts';
import { offerWorkflowId, withdrawOfferSignal } from '../../workflows/messages/offer.ts';
import { cancelSessionSignal, sessionWorkflowId } from '../../workflows/messages/session.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { TesterStatusInput } from './tester.schema.ts';
import type { CommandContext } from '../context.ts';

/**
 * An admin's change of a tester's status, with its reason kept for audit: approving a pending
 * tester (a filled-in profile) qualifies them as a passed quiz does; suspending ends their logins
 * (0027), their running offers (withdrawn: open ones free their place, accepted ones stop their
 * reminders) and their live sessions (cancelled: the study's place is free again); reinstating lifts the suspension (active when qualified, else pending).
 */
export async function changeTesterStatus(
  deps: CommandContext,
  principal: Principal,
  testerId: string,
  input: TesterStatusInput,
  log: Logger,
) {
  const at = deps.now();
  const { from, to, offers, sessions } = await asUser(deps.db, principal.claims, async (tx) => {
    const tester = await lockTesterStanding(tx, testerId);
    if (!tester) throw notFound('Tester');
    const current = tester.status;
    if (current === input.status) throw conflict(`Tester is already ${current}`);
    let next: TesterStatus;
    if (input.status === 'suspended') {
      next = await setTesterAccountStatus(tx, testerId, 'suspended');
    } else if (current === 'suspended') {
      next = await setTesterAccountStatus(tx, testerId, 'active');
    } else {
      if (!tester.country || tester.devices.length === 0) {
        throw conflict("The tester's profile is not filled in yet (country and devices)");
      }
      await approveTester(tx, testerId, principal.claims.sub, at);
      next = 'active';
    }
    await recordTesterStatusChange(tx, {
      testerId,
      from: current,
      to: next,
      reason: input.reason,
      changedBy: principal.claims.sub,
      at,
    });
    return {
      from: current,
      to: next,
      offers: next === 'suspended' ? await runningOffersOf(tx, testerId) : [],
      sessions: next === 'suspended' ? await liveSessionsOf(tx, testerId) : [],
    };
  });
  for (const offer of offers) {
    await tell(deps.temporal, offerWorkflowId(offer.id), withdrawOfferSignal, log, { outreachId: offer.id });
  }
  for (const session of sessions) {
    await tell(deps.temporal, sessionWorkflowId(session.id), cancelSessionSignal, log, {
      sessionId: session.id,
    });
  }
  return { testerId, status: to, previousStatus: from, reason: input.reason, changedAt: at.toISOString() };
}

/**
 * Tells an offer's workflow to withdraw, or a session's to cancel; one that has ended has nothing
 * left to end. A signal that cannot be sent leaves the suspension standing (committed): the
 * tester's logins and test tokens are refused, and an offer's acceptance refuses them too.
 */
async function tell(
  temporal: Client,
  workflowId: string,
  signal: SignalDefinition<[]>,
  log: Logger,
  ids: Record<string, string>,
): Promise<void> {
  try {
    await temporal.workflow.getHandle(workflowId).signal(signal);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    log.warn({ err: error, ...ids }, `a suspended tester's workflow was not told (${signal.name})`);
  }
}
