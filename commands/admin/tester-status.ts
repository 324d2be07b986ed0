import type { Logger } from 'pino';
import { asSystem, asUser } from '../../db/doors.ts';
import { cancelLiveSession } from '../../db/repositories/sessions.ts';
import { signalIfRunning, signalStudyWithStart } from '../../clients/temporal.ts';
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
import { serviceTaskQueue, type CommandContext } from '../context.ts';

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
  // One that has ended has nothing left to withdraw. A signal that cannot be sent leaves the
  // suspension standing (committed): the offer's acceptance refuses a suspended tester anyway.
  for (const offer of offers) {
    await signalIfRunning(deps.temporal, offerWorkflowId(offer.id), withdrawOfferSignal).catch(
      (error: unknown) =>
        log.warn({ err: error, outreachId: offer.id }, 'the offer of a suspended tester was not withdrawn'),
    );
  }
  for (const session of sessions) await cancelSession(deps, session.id, log);
  return { testerId, status: to, previousStatus: from, reason: input.reason, changedAt: at.toISOString() };
}

/**
 * Tells the session's workflow to cancel it. A live session that no workflow runs (its start
 * failed after its row was committed) is cancelled in its record here, and its study told.
 */
async function cancelSession(deps: CommandContext, sessionId: string, log: Logger): Promise<void> {
  const running = await signalIfRunning(
    deps.temporal,
    sessionWorkflowId(sessionId),
    cancelSessionSignal,
  ).catch((error: unknown) => {
    log.warn({ err: error, sessionId }, "a suspended tester's session was not told to cancel");
    return undefined;
  });
  // Told, or not known (Temporal unreachable): a workflow that may run the session keeps it.
  if (running !== false) return;
  const study = await asSystem(deps.db, (tx) => cancelLiveSession(tx, sessionId, deps.now()));
  if (!study) return;
  await signalStudyWithStart(deps.temporal, serviceTaskQueue(deps), study, {
    studyId: study.id,
    signal: 'sessionCancelled',
    sessionId,
  }).catch((error: unknown) =>
    log.warn({ err: error, sessionId }, 'the study was not told of a cancelled session'),
  );
}
