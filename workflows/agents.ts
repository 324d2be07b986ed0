import { ApplicationFailure, patched, proxyActivities } from '@temporalio/workflow';
import type { AgentJobOutcome, AiActivities } from '../activities/ai/ai-activities.ts';
import type { MilestoneActivities } from '../activities/notify/milestone-activities.ts';
import { runAgentJob } from './agent-steps.ts';
import type { AgentJobInput } from './messages/agents.ts';
import { deliverAll } from './notification.ts';

const records = proxyActivities<AiActivities & MilestoneActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/** Agent 1 for POST /api/ai: queued -> complete, or queued for the retry, or failed with a reason. */
export async function agent1Workflow(input: AgentJobInput): Promise<AgentJobOutcome> {
  return runToEnd(input.jobId);
}

/** Agent 4 for POST /api/reports/job/:id, through the system door like every agent job. */
export async function agent4Workflow(input: AgentJobInput): Promise<AgentJobOutcome> {
  const outcome = await runToEnd(input.jobId);
  // "Report ready" to the business once the study report exists (the activity checks it does).
  if (outcome.status === 'complete' && patched('milestone-notices')) {
    await deliverAll(await records.queueReportReady({ agentJobId: input.jobId }));
  }
  return outcome;
}

/** The job run once; a run that still fails after its attempts fails the job with the reason. */
async function runToEnd(jobId: string): Promise<AgentJobOutcome> {
  try {
    return await runAgentJob({ jobId });
  } catch (error) {
    const reason = reasonOf(error);
    await records.failAgentJob({ jobId, reason });
    return { status: 'failed' };
  }
}

/** The innermost message: an activity failure wraps the application failure that says why. */
function reasonOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (current instanceof ApplicationFailure || current instanceof Error) return current.message;
  return String(error);
}
