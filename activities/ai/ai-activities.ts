import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Db } from '../../db/connection.ts';
import { asSystem, type Tx } from '../../db/doors.ts';
import { recordWebhookEvent, type WebhookEvent } from '../../db/repositories/webhooks.ts';
import { reportReadyEvent, studyReportReadyEvent } from '../../commands/webhooks/webhook-events.ts';
import { announceDeliveries } from '../webhooks/announce.ts';
import {
  findAgentJob,
  lockAgentJob,
  updateAgentJobRow,
  type AgentJobRow,
} from '../../db/repositories/agent-jobs.ts';
import {
  claimDueAiWork,
  enqueueAiWork,
  findAiWork,
  finishAiWork,
  requeueAiWork,
} from '../../db/repositories/queued-ai-work.ts';
import type { AgentJobStatus, AgentKind } from '../../lib/domain.ts';
import type { Agents } from './agents.ts';
import { AGENT_INPUT_ERROR, AGENT_JOB_ATTEMPTS, AI_PROVIDERS_BUSY } from '../../lib/failures.ts';
import { AllProvidersUnavailableError } from './errors.ts';
import { whileHeartbeating } from './heartbeat.ts';
import { createJobRecoveryActivities } from './job-recovery-activities.ts';
import { answerJob } from './job-steps.ts';
import { createStudyReportActivities } from './study-report-activities.ts';

/** A workflow to signal once queued work completes (the session workflow waiting on Agent 2, say). */
export interface CompletionNotice {
  readonly workflowId: string;
  readonly signal: string;
}

export type AgentJobOutcome =
  | { readonly status: Exclude<AgentJobStatus, 'queued'> }
  /** Every provider failed: the job stays queued and the step waits in queued_ai_work. */
  | { readonly status: 'queued'; readonly reason: string };

export interface ClaimedAiWork {
  readonly workId: string;
  readonly step: AgentKind;
  readonly agentJobId: string | null;
  readonly notify: CompletionNotice | null;
}

export type QueuedWorkOutcome = 'done' | 'requeued' | 'failed' | 'skipped';
export type { StrandedAgentJob } from './job-recovery-activities.ts';

/** How long a claimed item is someone's before another run may take it (its worker died). */
export const CLAIM_LEASE_MS = 10 * 60_000;
/** An item that still finds no provider waits at least this long (the schedule runs every 15 minutes). */
export const REQUEUE_DELAY_MS = 5 * 60_000;
/** What a job waiting for the retry schedule tells its pollers: the schedule's next run at the latest. */
export const QUEUED_WORK_ESTIMATE_SECONDS = 15 * 60;
const ERROR_MAX = 5000;

export interface AiActivityDependencies {
  readonly db: Db;
  readonly agents: Agents;
  /** The clock of every record and due time (tests move it instead of rewriting rows). */
  readonly now?: () => Date;
}

/** One run of a job: settled (as it stands or by this run), or no provider answered. */
type RunOutcome =
  | { readonly status: Exclude<AgentJobStatus, 'queued'> }
  | {
      readonly status: 'unavailable';
      readonly error: AllProvidersUnavailableError;
      readonly job: AgentJobRow;
    };

const BUSY_FIRST_DELAY_MS = 30_000;
const BUSY_MAX_DELAY_MS = 5 * 60_000;

/** The delay before the next attempt: the providers' Retry-After, else 30 s doubling, within 1 s to 5 minutes. */
export function busyRetryDelayMs(error: AllProvidersUnavailableError, attempt: number): number {
  const asked = error.retryAfterMs ?? BUSY_FIRST_DELAY_MS * 2 ** (attempt - 1);
  return Math.min(Math.max(asked, 1000), BUSY_MAX_DELAY_MS);
}

/** This activity's attempt, or undefined outside an activity (a direct call: nothing would retry it). */
function activityAttempt(): number | undefined {
  try {
    return Context.current().info.attempt;
  } catch {
    return undefined;
  }
}

/**
 * A job that cannot run is failed with the reason, only while it is still queued: a run that
 * completed it meanwhile keeps its answer.
 */
async function failQueuedJob(tx: Tx, jobId: string, reason: string): Promise<void> {
  const job = await lockAgentJob(tx, jobId);
  if (job?.status !== 'queued') return;
  await updateAgentJobRow(tx, job.id, { status: 'failed', error: reason.slice(0, ERROR_MAX) });
}

/** The webhook event of a report an agent job wrote: Agent 3's tester report, Agent 4's study report. */
function reportEventOf(
  job: AgentJobRow,
  result: Record<string, unknown>,
  at: Date,
): WebhookEvent | undefined {
  if (job.kind === 'agent3' && job.session_id && typeof result.reportId === 'string') {
    const session = { id: job.session_id, organization_id: job.organization_id, study_id: job.study_id };
    return reportReadyEvent({ reportId: result.reportId, jobId: job.id }, session, at);
  }
  if (job.kind === 'agent4' && typeof result.aggregateReportId === 'string') {
    return studyReportReadyEvent(job, result.aggregateReportId, at);
  }
  return undefined;
}

/** Agent jobs (run, fail) and the queue of AI work that waits out a provider outage. */
export function createAiActivities({ db, agents, now = () => new Date() }: AiActivityDependencies) {
  /**
   * Runs a queued agent job once: a job that is no longer queued is answered as it stands, and the
   * write happens only while holding the job's lock and finding it still queued, so two runs (a
   * retry racing the schedule) cannot both complete it. When no provider answers, the job is left
   * as it is and the caller decides where it waits.
   */
  async function runJob(jobId: string): Promise<RunOutcome> {
    const job = await asSystem(db, (tx) => findAgentJob(tx, jobId));
    if (!job) throw ApplicationFailure.nonRetryable(`Agent job ${jobId} not found`, AGENT_INPUT_ERROR);
    if (job.status !== 'queued') return { status: job.status };
    const started = now();
    let answered;
    try {
      answered = await answerJob(db, agents, job);
    } catch (error) {
      if (!(error instanceof AllProvidersUnavailableError)) throw error;
      return { status: 'unavailable', error, job };
    }
    const written = await asSystem(db, async (tx) => {
      const current = await lockAgentJob(tx, job.id);
      if (current?.status !== 'queued')
        return { status: current?.status ?? 'failed', deliveries: [] } as const;
      const completedAt = now();
      const result = await answered.persist(tx, completedAt);
      await updateAgentJobRow(tx, job.id, {
        status: 'complete',
        provider: answered.provider,
        used_fallback: answered.usedFallback,
        started_at: started,
        completed_at: completedAt,
        duration_ms: Math.max(0, completedAt.getTime() - started.getTime()),
        estimated_completion_seconds: 0,
        result,
        error: null,
      });
      const event = reportEventOf(job, result, completedAt);
      return { status: 'complete', deliveries: event ? await recordWebhookEvent(tx, event) : [] } as const;
    });
    await announceDeliveries(written.deliveries);
    return { status: written.status };
  }

  return {
    ...createJobRecoveryActivities({ db, now }),
    ...createStudyReportActivities({ db, local: agents.local, now }),

    /**
     * Runs an agent job. When no provider answers: every one refused it (keys, models) -> the job
     * fails, as asking again changes nothing; every one that may answer later is busy (rate limits,
     * overload) -> this activity fails so Temporal tries it again after their Retry-After, up to
     * AGENT_JOB_ATTEMPTS; otherwise -> the job is queued for the retry schedule. It heartbeats, so a
     * worker that dies mid-agent is noticed at the caller's heartbeat timeout.
     */
    async runAgentJob(input: { jobId: string; notify?: CompletionNotice }): Promise<AgentJobOutcome> {
      return whileHeartbeating(async () => {
        const outcome = await runJob(input.jobId);
        if (outcome.status !== 'unavailable') return outcome;
        const { job, error } = outcome;
        const reason = error.message;
        if (!error.retryable) {
          await asSystem(db, (tx) => failQueuedJob(tx, job.id, reason));
          return { status: 'failed' };
        }
        const attempt = activityAttempt();
        if (error.busy && attempt !== undefined && attempt < AGENT_JOB_ATTEMPTS) {
          throw ApplicationFailure.create({
            type: AI_PROVIDERS_BUSY,
            message: reason,
            nextRetryDelay: busyRetryDelayMs(error, attempt),
          });
        }
        await asSystem(db, async (tx) => {
          await enqueueAiWork(tx, {
            step: job.kind,
            agentJobId: job.id,
            sessionId: job.session_id,
            payload: input.notify ? { notify: input.notify } : {},
            error: reason,
            now: now(),
          });
          await updateAgentJobRow(tx, job.id, { estimated_completion_seconds: QUEUED_WORK_ESTIMATE_SECONDS });
        });
        return { status: 'queued', reason };
      });
    },

    /** A job that cannot run (its input is gone, or every attempt broke): failed, with the reason. */
    async failAgentJob(input: { jobId: string; reason: string }): Promise<void> {
      await asSystem(db, (tx) => failQueuedJob(tx, input.jobId, input.reason));
    },

    /** The retry schedule's first step: the due items, each claimed under a lease. */
    async claimQueuedAiWork(input: { limit: number }): Promise<ClaimedAiWork[]> {
      const rows = await asSystem(db, (tx) =>
        claimDueAiWork(tx, { now: now(), leaseMs: CLAIM_LEASE_MS, limit: input.limit }),
      );
      return rows.map((row) => ({
        workId: row.id,
        step: row.step,
        agentJobId: row.agent_job_id,
        notify: (row.payload.notify as CompletionNotice | undefined) ?? null,
      }));
    },

    /**
     * One claimed item: runs its job unless the job is already settled, then takes the item out
     * of the queue (done or failed) or puts it back when still no provider answers. The claim's
     * lease keeps other runs off the item meanwhile, and the job's own lock decides its completion.
     */
    async processQueuedAiWork(input: { workId: string }): Promise<QueuedWorkOutcome> {
      const item = await asSystem(db, (tx) => findAiWork(tx, input.workId));
      if (item?.status !== 'processing') return 'skipped';
      const jobId = item.agent_job_id;
      if (!jobId) {
        await asSystem(db, (tx) =>
          finishAiWork(tx, item.id, { status: 'failed', at: now(), error: 'no agent job' }),
        );
        return 'failed';
      }
      let outcome;
      try {
        outcome = await runJob(jobId);
      } catch (error) {
        if (!(error instanceof ApplicationFailure && error.nonRetryable)) throw error;
        await asSystem(db, async (tx) => {
          await failQueuedJob(tx, jobId, error.message);
          await finishAiWork(tx, item.id, { status: 'failed', at: now(), error: error.message });
        });
        return 'failed';
      }
      if (outcome.status === 'unavailable' && !outcome.error.retryable) {
        // Every provider refused it: another round in 15 minutes would be refused the same way.
        const reason = outcome.error.message;
        await asSystem(db, async (tx) => {
          await failQueuedJob(tx, jobId, reason);
          await finishAiWork(tx, item.id, { status: 'failed', at: now(), error: reason.slice(0, ERROR_MAX) });
        });
        return 'failed';
      }
      if (outcome.status === 'unavailable') {
        const retryAt = new Date(now().getTime() + REQUEUE_DELAY_MS);
        await asSystem(db, (tx) => requeueAiWork(tx, item.id, outcome.error.message, retryAt));
        return 'requeued';
      }
      const done = outcome.status === 'complete';
      await asSystem(db, (tx) =>
        finishAiWork(tx, item.id, {
          status: done ? 'done' : 'failed',
          at: now(),
          ...(done ? {} : { error: `job ${outcome.status}` }),
        }),
      );
      return done ? 'done' : 'failed';
    },
  };
}

export type AiActivities = ReturnType<typeof createAiActivities>;
