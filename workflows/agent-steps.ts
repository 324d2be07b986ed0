import { ActivityFailure, log, proxyActivities, sleep } from '@temporalio/workflow';
import type { AiActivities, CompletionNotice } from '../activities/ai/ai-activities.ts';
import type { SessionActivities } from '../activities/sessions/session-activities.ts';
import { AGENT_INPUT_ERROR, AGENT_JOB_ATTEMPTS, failureOfType } from '../lib/failures.ts';

/** The workflow and signal an agent job queued for the AI retry schedule reports back to. */
export type AgentNotice = CompletionNotice;

// A provider outage is not an activity failure (the job is queued for the retry schedule), except
// while every provider is busy (rate limits, overload): then the first attempts fail with
// AI_PROVIDERS_BUSY and wait the providers' Retry-After (activities/ai/ai-activities.ts). The
// attempts also cover the database and the worker. runAgentJob heartbeats every 2 s, so a worker
// that dies mid-agent costs 10 s rather than the 5-minute start-to-close timeout. A job whose input is
// not there (AGENT_INPUT_ERROR) is a bug, not an outage, and is not retried.
export const { runAgentJob } = proxyActivities<AiActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: AGENT_JOB_ATTEMPTS, nonRetryableErrorTypes: [AGENT_INPUT_ERROR] },
});
const { failAgentJob, recordReportFailure } = proxyActivities<AiActivities & SessionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/** How often a workflow waiting for the AI retry schedule's signal re-reads its job (the schedule's interval). */
export const SETTLED_RECHECK = '15 minutes';
/** Agent 3 is tried again after this, doubling up to REPORT_RETRY_MAX_MS, for as long as it fails. */
export const REPORT_RETRY_FIRST_MS = 60_000;
const REPORT_RETRY_MAX_MS = 60 * 60_000;

/**
 * Agent 3 on the job queued at confirmation, until it succeeds: after each failed round of
 * attempts the job records the error and the retry time, and the workflow waits (1 minute,
 * doubling up to an hour) before the next. When every provider is down the job is left to the AI
 * retry schedule (`queued`). Only a job whose input is not there (a bug, not an outage) stops it.
 */
export async function buildReport(
  sessionId: string,
  reportJobId: string,
  notify: AgentNotice,
): Promise<'complete' | 'failed' | 'queued'> {
  for (let delay = REPORT_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, REPORT_RETRY_MAX_MS)) {
    try {
      return (await runAgentJob({ jobId: reportJobId, notify })).status;
    } catch (error) {
      if (failureOfType(error, AGENT_INPUT_ERROR)) {
        log.error('Agent 3 cannot run on this session', { sessionId, error: String(error) });
        await failAgentJob({ jobId: reportJobId, reason: failureMessage(error) });
        return 'failed';
      }
      log.warn('Agent 3 failed; retrying later', { sessionId, error: String(error), delay });
      await recordReportFailure({
        jobId: reportJobId,
        error: failureMessage(error),
        retryInSeconds: delay / 1000,
      });
      await sleep(delay);
    }
  }
}

/** The activity's own message rather than the wrapper's "Activity task failed". */
export const failureMessage = (error: unknown): string =>
  error instanceof ActivityFailure && error.cause ? error.cause.message : String(error);
