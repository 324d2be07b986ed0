import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { findAgentJob, strandedApiJobs } from '../../db/repositories/agent-jobs.ts';
import type { AgentJobStatus } from '../../lib/domain.ts';

/** A job queued this long ago with no workflow at work on it is taken to have lost its start. */
export const STRANDED_AFTER_MS = 5 * 60_000;

export interface StrandedAgentJob {
  readonly jobId: string;
  readonly kind: 'agent1' | 'agent4';
}

/**
 * "Nothing lost" where a signal or a workflow start did not happen: a waiting workflow re-reads its
 * job's status, and the retry schedule finds jobs whose workflow may never have started.
 */
export function createJobRecoveryActivities({ db, now }: { db: Db; now: () => Date }) {
  return {
    /** A job's status as stored (a job that is not there counts as failed: nothing will complete it). */
    async agentJobStatus(input: { jobId: string }): Promise<AgentJobStatus> {
      const job = await asSystem(db, (tx) => findAgentJob(tx, input.jobId));
      return job?.status ?? 'failed';
    },

    /** Agent 1 and 4 jobs queued for a while with nothing in the retry queue: their start may have failed. */
    async strandedAgentJobs(input: { limit: number }): Promise<StrandedAgentJob[]> {
      const before = new Date(now().getTime() - STRANDED_AFTER_MS);
      const rows = await asSystem(db, (tx) => strandedApiJobs(tx, { before, limit: input.limit }));
      return rows.map((row) => ({ jobId: row.id, kind: row.kind as StrandedAgentJob['kind'] }));
    },
  };
}
