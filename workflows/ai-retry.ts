import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  getExternalWorkflowHandle,
  log,
  ParentClosePolicy,
  proxyActivities,
  startChild,
} from '@temporalio/workflow';
import type { AiActivities, QueuedWorkOutcome, StrandedAgentJob } from '../activities/ai/ai-activities.ts';
import { agent1Workflow, agent4Workflow } from './agents.ts';
import { agent1WorkflowId, agent4WorkflowId } from './messages/agents.ts';
import type { AiWorkCompletion } from './messages/session.ts';

/** How often the retry schedule (messages/ai-retry.ts: AI_RETRY_SCHEDULE_ID) starts a run. */
export const AI_RETRY_INTERVAL = '15 minutes';
/** Items one run claims at a time; a run keeps claiming until nothing is due. */
export const AI_RETRY_BATCH = 25;
/** A bound on one run's work, so a run cannot go on forever if items keep coming due. */
const MAX_BATCHES = 40;
/** API jobs one run looks at for a lost workflow start. */
const STRANDED_BATCH = 100;

const queue = proxyActivities<AiActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', maximumAttempts: 5 },
});
const work = proxyActivities<AiActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

/** Per outcome, the items of one run; `restarted`: API jobs whose workflow was started again. */
export type AiRetrySummary = Readonly<Record<QueuedWorkOutcome | 'restarted', number>>;

/**
 * One run of the retry schedule: claims the queued AI work that is due, runs each item's agent
 * job, and signals whoever asked to hear of a completion. An item whose processing breaks stays
 * claimed until its lease runs out and a later run takes it again; nothing is dropped. Then it
 * starts the workflow of API jobs that have waited too long with none (restartStranded).
 */
export async function aiRetryWorkflow(): Promise<AiRetrySummary> {
  const summary: Record<QueuedWorkOutcome | 'restarted', number> = {
    done: 0,
    requeued: 0,
    failed: 0,
    skipped: 0,
    restarted: 0,
  };
  for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
    const items = await queue.claimQueuedAiWork({ limit: AI_RETRY_BATCH });
    for (const item of items) {
      let outcome: QueuedWorkOutcome;
      try {
        outcome = await work.processQueuedAiWork({ workId: item.workId });
      } catch (error) {
        log.warn('Queued AI work failed; its lease will let a later run retry it', {
          workId: item.workId,
          error: String(error),
        });
        continue;
      }
      summary[outcome] += 1;
      // A waiting workflow hears of a failure too, or it would wait for a completion that never comes.
      if ((outcome === 'done' || outcome === 'failed') && item.notify && item.agentJobId) {
        const completion: AiWorkCompletion = {
          agentJobId: item.agentJobId,
          step: item.step,
          status: outcome === 'done' ? 'complete' : 'failed',
        };
        try {
          await getExternalWorkflowHandle(item.notify.workflowId).signal(item.notify.signal, completion);
        } catch (error) {
          log.info('The waiting workflow did not take the completion', {
            workflowId: item.notify.workflowId,
            error: String(error),
          });
        }
      }
    }
    if (items.length < AI_RETRY_BATCH) break;
  }
  for (const job of await queue.strandedAgentJobs({ limit: STRANDED_BATCH })) {
    if (await restartStranded(job)) summary.restarted += 1;
  }
  return summary;
}

/**
 * POST /api/ai and POST /api/reports/job/:id commit a queued job, then start its workflow; when
 * that start fails the job would wait for ever. Its workflow is started here under the id the API
 * would have used, so a workflow still at work on it is left alone (already started). It outlives
 * this run.
 */
async function restartStranded(job: StrandedAgentJob): Promise<boolean> {
  const agent1 = job.kind === 'agent1';
  try {
    await startChild(agent1 ? agent1Workflow : agent4Workflow, {
      workflowId: agent1 ? agent1WorkflowId(job.jobId) : agent4WorkflowId(job.jobId),
      args: [{ jobId: job.jobId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw error;
  }
  log.warn('Started the workflow of an agent job that had none', { ...job });
  return true;
}
