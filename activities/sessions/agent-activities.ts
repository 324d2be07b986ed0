import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { findAgentJob, insertAgentJob, updateAgentJobRow } from '../../db/repositories/agent-jobs.ts';
import { requireSession } from './require-session.ts';

/** What a queued report job promises a caller polling POST /api/reports. */
export const REPORT_ESTIMATE_SECONDS = 5;
const ERROR_MAX = 5000;

export interface AgentActivityDependencies {
  readonly db: Db;
}

/**
 * The session's side of Agents 2 and 3: their jobs are created here, and run by `runAgentJob`
 * (activities/ai), which words the facts through the providers or the local analyst.
 */
export function createAgentActivities({ db }: AgentActivityDependencies) {
  return {
    /**
     * Agent 2's job, queued under the id the workflow chose, so a retried attempt whose first try
     * committed finds its job instead of queuing a second one.
     */
    async queueAnalysisJob(input: { sessionId: string; jobId: string }): Promise<void> {
      await asSystem(db, async (tx) => {
        if (await findAgentJob(tx, input.jobId)) return;
        const session = await requireSession(tx, input.sessionId);
        await insertAgentJob(tx, {
          id: input.jobId,
          kind: 'agent2',
          organization_id: session.organization_id,
          study_id: session.study_id,
          session_id: session.id,
          status: 'queued',
        });
      });
    },

    /**
     * A failed round of Agent 3: the report job stays queued, carrying the error and when the
     * workflow tries again, so POST /api/reports answers "queued" rather than a report that never comes.
     */
    async recordReportFailure(input: { jobId: string; error: string; retryInSeconds: number }) {
      await asSystem(db, async (tx) => {
        const job = await findAgentJob(tx, input.jobId);
        if (job?.status !== 'queued') return;
        await updateAgentJobRow(tx, job.id, {
          error: input.error.slice(0, ERROR_MAX),
          estimated_completion_seconds: input.retryInSeconds + REPORT_ESTIMATE_SECONDS,
        });
      });
    },
  };
}

export type AgentActivities = ReturnType<typeof createAgentActivities>;
