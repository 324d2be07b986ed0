import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import { asUser } from '../../db/doors.ts';
import {
  approveTester,
  lockTesterStanding,
  recordTesterStatusChange,
  runningOffersOf,
  setTesterAccountStatus,
} from '../../db/repositories/tester-profiles.ts';
import type { TesterStatus } from '../../lib/domain.ts';
import { offerWorkflowId, withdrawOfferSignal } from '../../workflows/messages/offer.ts';
import type { Principal } from '../principal.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { TesterStatusInput } from './tester.schema.ts';
import type { CommandContext } from '../context.ts';

/**
 * An admin's change of a tester's status, with its reason kept for audit: approving a pending
 * tester (a filled-in profile) qualifies them as a passed quiz does; suspending ends their logins
 * (0027) and their running offers (withdrawn: open ones free their place, accepted ones stop their
 * reminders); reinstating lifts the suspension (active when qualified, else pending).
 */
export async function changeTesterStatus(
  deps: CommandContext,
  principal: Principal,
  testerId: string,
  input: TesterStatusInput,
  log: Logger,
) {
  const at = deps.now();
  const { from, to, offers } = await asUser(deps.db, principal.claims, async (tx) => {
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
    };
  });
  for (const offer of offers) await withdraw(deps.temporal, offer.id, log);
  return { testerId, status: to, previousStatus: from, reason: input.reason, changedAt: at.toISOString() };
}

/** Signals the offer's workflow to withdraw; one that has ended has nothing left to withdraw. */
async function withdraw(temporal: Client, outreachId: string, log: Logger): Promise<void> {
  try {
    await temporal.workflow.getHandle(offerWorkflowId(outreachId)).signal(withdrawOfferSignal);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return;
    // The suspension stands (committed); the offer's acceptance refuses a suspended tester anyway.
    log.warn({ err: error, outreachId }, 'the offer of a suspended tester was not withdrawn');
  }
}
