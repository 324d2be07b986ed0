import { getExternalWorkflowHandle, log, proxyActivities } from '@temporalio/workflow';
import type { AiActivities, ClaimedAiWork, QueuedWorkOutcome } from '../activities/ai/ai-activities.ts';

/** The Temporal Schedule that starts the retry (spec: "AI retry job every 15 minutes"). */
export const AI_RETRY_SCHEDULE_ID = 'ai-retry';
export const AI_RETRY_INTERVAL = '15 minutes';
/** Items one run claims at a time; a run keeps claiming until nothing is due. */
export const AI_RETRY_BATCH = 25;
/** A bound on one run's work, so a run cannot go on forever if items keep coming due. */
const MAX_BATCHES = 40;

const queue = proxyActivities<AiActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute', maximumAttempts: 5 },
});
const work = proxyActivities<AiActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3 },
});

export type AiRetrySummary = Readonly<Record<QueuedWorkOutcome, number>>;

/** What a workflow that asked to be told (`payload.notify`) receives once its queued step settles. */
export interface AiWorkCompletion {
  readonly agentJobId: string;
  readonly step: ClaimedAiWork['step'];
  readonly status: 'complete' | 'failed';
}

/**
 * One run of the retry schedule: claims the queued AI work that is due, runs each item's agent
 * job, and signals whoever asked to hear of a completion. An item whose processing breaks stays
 * claimed until its lease runs out and a later run takes it again; nothing is dropped.
 */
export async function aiRetryWorkflow(): Promise<AiRetrySummary> {
  const summary: Record<QueuedWorkOutcome, number> = { done: 0, requeued: 0, failed: 0, skipped: 0 };
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
  return summary;
}
