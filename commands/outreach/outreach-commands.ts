import { signalStudyWithStart } from '../../clients/temporal.ts';
import { OUTREACH_DECISION_REFUSED } from '../../lib/failures.ts';
import { approveOutreachUpdate } from '../../workflows/messages/recruitment.ts';
import { studyWorkflowId } from '../../workflows/messages/study.ts';
import { updateOrConflict } from '../update-or-conflict.ts';
import { ensureStudyWorkflow } from '../studies/create-study.ts';
import { asUser } from '../../db/doors.ts';
import { studyStatusOf } from '../../db/repositories/lifecycle.ts';
import {
  lockOutreachMessage,
  updateOutreachMessage,
  type OutreachRow,
} from '../../db/repositories/outreach-messages.ts';
import type { Tx } from '../../db/doors.ts';
import type { Logger } from 'pino';
import type { Principal } from '../principal.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import type { EditOutreachInput } from './outreach.schema.ts';
import { serviceTaskQueue, type CommandContext } from '../context.ts';

/** The message as the caller may see it, locked, while it is still pending review (else 404 or 409). */
async function pendingMessage(tx: Tx, id: string, verb: string): Promise<OutreachRow> {
  const message = await lockOutreachMessage(tx, id);
  if (!message) throw notFound('Outreach message');
  if (message.status !== 'pending') {
    throw conflict(`Outreach message must be pending to ${verb} (it is ${message.status})`);
  }
  return message;
}

/**
 * Approves a pending message: the study's workflow records it and sends it as the study's offer
 * at its `scheduledSendAt`. Only while the study recruits (active or paused; a paused study holds
 * the offer until it is resumed), else 409.
 */
export async function approveOutreach(deps: CommandContext, principal: Principal, id: string) {
  const study = await asUser(deps.db, principal.claims, async (tx) => {
    const message = await pendingMessage(tx, id, 'approve');
    return studyStatusOf(tx, message.study_id);
  });
  if (!study) throw notFound('Outreach message');
  if (study.status !== 'active' && study.status !== 'paused') {
    throw conflict(`Study must be active or paused to decide its outreach (it is ${study.status})`);
  }
  await ensureStudyWorkflow(deps, study);
  const approved = await updateOrConflict(OUTREACH_DECISION_REFUSED, () =>
    deps.temporal.workflow
      .getHandle(studyWorkflowId(study.id))
      .executeUpdate(approveOutreachUpdate, { args: [{ outreachId: id, approvedBy: principal.claims.sub }] }),
  );
  return { outreachId: id, status: 'approved' as const, ...approved };
}

/** Rewords a pending message; it stays pending and still needs an approval. */
export async function editOutreach(
  deps: CommandContext,
  principal: Principal,
  id: string,
  input: EditOutreachInput,
) {
  const edited = await asUser(deps.db, principal.claims, async (tx) => {
    const message = await pendingMessage(tx, id, 'edit');
    if (input.subject !== undefined && message.channel !== 'email') {
      throw invalid('subject: Only email messages have a subject');
    }
    return updateOutreachMessage(tx, id, {
      body: input.body,
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      updated_at: deps.now(),
    });
  });
  return { outreachId: edited.id, status: 'pending' as const, updatedAt: edited.updated_at.toISOString() };
}

/**
 * Rejects a pending message: it is never sent, the reason stays for audit, and the study's
 * workflow hears of it (`outreachRejected`), so matching can fill the place again.
 */
export async function rejectOutreach(
  deps: CommandContext,
  principal: Principal,
  id: string,
  reason: string | undefined,
  log: Logger,
) {
  const { rejected, study } = await asUser(deps.db, principal.claims, async (tx) => {
    await pendingMessage(tx, id, 'reject');
    const row = await updateOutreachMessage(tx, id, {
      status: 'rejected',
      rejected_at: deps.now(),
      rejected_by: principal.claims.sub,
      rejection_reason: reason ?? null,
      updated_at: deps.now(),
    });
    return { rejected: row, study: await studyStatusOf(tx, row.study_id) };
  });
  // The rejection is committed whatever becomes of the signal: a lost one only delays matching
  // until the workflow's own recheck (MATCHING_RECHECK), so it is logged, not answered as a failure.
  if (study) {
    await signalStudyWithStart(deps.temporal, serviceTaskQueue(deps), study, {
      studyId: study.id,
      signal: 'outreachRejected',
      outreachId: id,
    }).catch((error: unknown) => log.warn({ err: error, outreachId: id }, 'outreachRejected not signalled'));
  }
  return {
    outreachId: rejected.id,
    status: 'rejected' as const,
    rejectedAt: rejected.rejected_at!.toISOString(),
  };
}
