import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { hasVariants, studyReportProgress } from '../../db/repositories/agent-inputs.ts';
import { insertAgentJobOnce } from '../../db/repositories/agent-jobs.ts';
import { findStudyOrganization } from '../../db/repositories/studies.ts';
import { AGENT_INPUT_ERROR } from '../../lib/failures.ts';
import { estimateSeconds } from '../../clients/ai/configured.ts';

/**
 * Agent 4 on a study's completion (DESIGN.md: completed -> Agent 4 aggregate report): the study
 * workflow waits for its tester reports, then queues the study-level job and runs it.
 */
export function createStudyReportActivities({ db, local, now }: { db: Db; local: boolean; now: () => Date }) {
  return {
    /** How many tester reports the study has, and how many confirmed sessions still wait for theirs. */
    studyReportProgress(input: { studyId: string }): Promise<{ reports: number; waiting: number }> {
      return asSystem(db, (tx) => studyReportProgress(tx, input.studyId));
    },

    /**
     * Queues the study's Agent 4 job under the id the workflow chose, so a retried activity finds
     * it instead of queuing another. Answers false when the study has no tester report to aggregate.
     */
    async queueStudyReport(input: { studyId: string; aggregateJobId: string }): Promise<boolean> {
      return asSystem(db, async (tx) => {
        const study = await findStudyOrganization(tx, input.studyId);
        if (!study) {
          throw ApplicationFailure.nonRetryable(`Study ${input.studyId} not found`, AGENT_INPUT_ERROR);
        }
        const { reports } = await studyReportProgress(tx, study.id);
        if (reports === 0) return false;
        await insertAgentJobOnce(tx, {
          id: input.aggregateJobId,
          kind: 'agent4',
          organization_id: study.organization_id,
          study_id: study.id,
          session_id: null,
          status: 'queued',
          requested_by: null,
          options: {
            includeVariantComparison: await hasVariants(tx, study.id),
            minSessionCount: 1,
            sessionCount: reports,
          },
          estimated_completion_seconds: estimateSeconds(local),
          queued_at: now(),
        });
        return true;
      });
    },
  };
}
