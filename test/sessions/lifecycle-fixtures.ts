import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { asSystem } from '../../db/doors.ts';
import type { SessionStatus, StudyStatus } from '../../lib/domain.ts';
import { insertStudy } from '../auth/helpers.ts';
import { testDatabase } from '../support/database.ts';

const MINUTE = 60_000;
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE);

/**
 * A study written straight to the database, as the seed writes its demo study, or as a create
 * leaves it when the workflow start after its commit failed: no workflow. Paid unless draft.
 */
export async function studyWithoutWorkflow(
  organizationId: string,
  options: { status: StudyStatus; testerCount?: number; createdAt?: Date; maxDurationMinutes?: number },
): Promise<string> {
  const jobId = await insertStudy(organizationId);
  await asSystem(testDatabase(), (tx) =>
    tx
      .updateTable('studies')
      .set({
        status: options.status,
        paid_at: options.status === 'draft' ? null : new Date(),
        tester_count: options.testerCount ?? 1,
        max_duration_minutes: options.maxDurationMinutes ?? 60,
        ...(options.createdAt ? { created_at: options.createdAt } : {}),
      })
      .where('id', '=', jobId)
      .execute(),
  );
  return jobId;
}

/** A session row committed without its workflow (its start failed after the commit). */
export async function sessionWithoutWorkflow(
  jobId: string,
  testerId: string,
  options: { status?: SessionStatus; startedAt?: Date; createdAt?: Date } = {},
): Promise<{ id: string; started_at: Date }> {
  return asSystem(testDatabase(), async (tx) => {
    const { organization_id } = await tx
      .selectFrom('studies')
      .select('organization_id')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    return tx
      .insertInto('sessions')
      .values({
        study_id: jobId,
        organization_id,
        tester_id: testerId,
        status: options.status ?? 'active',
        ...(options.startedAt ? { started_at: options.startedAt } : {}),
        ...(options.createdAt ? { created_at: options.createdAt } : {}),
      })
      .returning(['id', 'started_at'])
      .executeTakeFirstOrThrow();
  });
}

/** The input a workflow was started with (its first history event). */
export async function startInputOf<T>(handle: WorkflowHandle): Promise<T> {
  const [started] = (await handle.fetchHistory()).events ?? [];
  return defaultPayloadConverter.fromPayload<T>(
    started!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!,
  );
}

/** An offer sent to `testerId` for the study and still open, as the offer workflow leaves it. */
export async function openOffer(
  jobId: string,
  testerId: string,
  options: { sentAt?: Date; expiresAt?: Date } = {},
): Promise<string> {
  return asSystem(testDatabase(), async (tx) => {
    const study = await tx
      .selectFrom('studies')
      .select('organization_id')
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    const sentAt = options.sentAt ?? new Date();
    const row = await tx
      .insertInto('outreach_messages')
      .values({
        organization_id: study.organization_id,
        study_id: jobId,
        tester_id: testerId,
        recipient_email: `${testerId}@testers.example`,
        channel: 'email',
        subject: 'An offer',
        body: 'Would you test our study?',
        status: 'approved',
        approved_at: sentAt,
        scheduled_send_at: sentAt,
        sent_at: sentAt,
        offer_status: 'open',
        offer_expires_at: options.expiresAt ?? new Date(sentAt.getTime() + 48 * 60 * MINUTE),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  });
}
