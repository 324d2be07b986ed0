import type { Db } from '../../db/connection.ts';
import { ApplicationFailure } from '@temporalio/common';
import { asSystem } from '../../db/doors.ts';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import { sessionEvent } from '../../commands/webhooks/webhook-events.ts';
import { announceDeliveries } from '../webhooks/announce.ts';
import { insertAgentJob } from '../../db/repositories/agent-jobs.ts';
import { applyDecisions } from '../../db/repositories/session-notes.ts';
import { queuePayment, refreshStudyNotesConfirmed, updateSession } from '../../db/repositories/sessions.ts';
import { closeRecording } from '../../db/repositories/signals.ts';
import { saveTaskAttempt, type TaskAttemptRecord } from '../../db/repositories/task-attempts.ts';
import type { SessionStatus } from '../../lib/domain.ts';
import { SESSION_STATE_ERROR } from '../../lib/failures.ts';
import type { Confirmation } from '../../workflows/messages/session.ts';
import { createAgentActivities, REPORT_ESTIMATE_SECONDS } from './agent-activities.ts';
import { requireSession } from './require-session.ts';
import { judgeSuccessPages } from './success-pages.ts';

export interface SessionActivityDependencies {
  readonly db: Db;
  /** Whether this worker moves money (activities/index.ts: payments configured and not disabled). */
  readonly payoutsEnabled?: boolean;
}

/** Side effects of the session workflow. The workflow owns the state; these record it. */
export function createSessionActivities({ db, payoutsEnabled = false }: SessionActivityDependencies) {
  return {
    ...createAgentActivities({ db }),

    async recordSessionStatus(input: { sessionId: string; status: SessionStatus; completedAt?: string }) {
      const deliveries = await asSystem(db, async (tx): Promise<string[]> => {
        const session = await requireSession(tx, input.sessionId);
        const stamped =
          input.status === 'analyzed'
            ? { analyzed_at: new Date() }
            : input.status === 'cancelled'
              ? { cancelled_at: new Date() }
              : {};
        if (!input.completedAt) {
          await updateSession(tx, input.sessionId, { status: input.status, ...stamped });
          return [];
        }
        // Signal batches still in flight commit first, so the success pages see them.
        await closeRecording(tx, input.sessionId);
        const completedAt = new Date(input.completedAt);
        const seconds = Math.max(
          0,
          Math.round((completedAt.getTime() - session.started_at.getTime()) / 1000),
        );
        await updateSession(tx, input.sessionId, {
          status: input.status,
          completed_at: completedAt,
          duration_seconds: seconds,
        });
        await judgeSuccessPages(tx, input.sessionId);
        return recordWebhookEvent(tx, sessionEvent('session.completed', session, completedAt));
      });
      await announceDeliveries(deliveries);
    },

    /** One change of a task attempt the workflow judged (begun, or ended with its time on task). */
    async recordTaskAttempt(record: TaskAttemptRecord) {
      const saved = await asSystem(db, (tx) => saveTaskAttempt(tx, record));
      if (!saved) {
        throw ApplicationFailure.nonRetryable(
          `Session ${record.sessionId} has no task ${record.order}`,
          SESSION_STATE_ERROR,
        );
      }
    },

    /**
     * The tester's decisions and rating; the gate opens (notes_confirmed) in the same transaction,
     * which also queues the Agent 3 job (under the id the workflow chose), so POST /api/reports
     * has a job to answer from then on.
     */
    async recordConfirmation(input: { sessionId: string; confirmation: Confirmation; reportJobId: string }) {
      const { rating, comment, decisions, confirmedAt } = input.confirmation;
      const at = new Date(confirmedAt);
      const deliveries = await asSystem(db, async (tx): Promise<string[]> => {
        const session = await requireSession(tx, input.sessionId);
        if (session.status === 'confirmed') return [];
        await applyDecisions(tx, session.id, decisions, at);
        await updateSession(tx, session.id, {
          status: 'confirmed',
          confirmed_at: at,
          notes_confirmed: true,
          notes_confirmed_at: at,
          rating,
          rating_comment: comment ?? null,
        });
        await refreshStudyNotesConfirmed(tx, session.study_id);
        await insertAgentJob(tx, {
          id: input.reportJobId,
          kind: 'agent3',
          organization_id: session.organization_id,
          study_id: session.study_id,
          session_id: session.id,
          status: 'queued',
          // The report is written now, before anyone asks for a format: the stored facts are
          // rendered in either format on reading (api/reports/report-rendering.ts).
          options: { reportFormat: 'structured' },
          estimated_completion_seconds: REPORT_ESTIMATE_SECONDS,
        });
        return recordWebhookEvent(tx, sessionEvent('session.confirmed', session, at));
      });
      await announceDeliveries(deliveries);
    },

    /**
     * Queues the confirmed session's payment; the workflow starts its payout when this worker
     * moves money (a worker without payments starts nothing: the payout waits for one that does).
     */
    async queueSessionPayment(input: {
      sessionId: string;
    }): Promise<{ paymentId: string | null; payoutsEnabled: boolean }> {
      const paymentId = await asSystem(db, (tx) => queuePayment(tx, input.sessionId));
      return { paymentId, payoutsEnabled };
    },
  };
}

export type SessionActivities = ReturnType<typeof createSessionActivities>;
