import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  log,
  proxyActivities,
  setHandler,
  sleep,
  uuid4,
} from '@temporalio/workflow';
import type { AgentJobOutcome, AiActivities } from '../activities/ai/ai-activities.ts';
import type { PrivacyActivities } from '../activities/privacy/privacy-activities.ts';
import type { Confirmation, SessionActivities } from '../activities/sessions/session-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import type { AiWorkCompletion } from './ai-retry.ts';
import { startPayoutChild } from './payout.ts';

export type SessionWorkflowStatus =
  'active' | 'paused' | 'completed' | 'analyzing' | 'analyzed' | 'confirmed';
export type SessionStatusAction = 'pause' | 'resume' | 'complete';
/** What the database may also hold: a session withdrawn outside the workflow's life. */
export type RecordedSessionStatus = SessionWorkflowStatus | 'cancelled';
export type { Confirmation };

export interface SessionWorkflowInput {
  readonly sessionId: string;
  readonly jobId: string;
  /** ISO timestamp; the time limit counts from here, pauses included. */
  readonly startedAt: string;
  readonly maxDurationMinutes: number;
  /**
   * Where the session stands when the workflow starts: active for a new session; the recorded
   * status (active or paused) for a session whose workflow is started late (lifecycle reconciler).
   */
  readonly status?: 'active' | 'paused';
}

export interface SessionStatusChange {
  readonly action: SessionStatusAction;
  /** For `complete`: when the tester finished; the API defaults it to the server's time. */
  readonly completedAt?: string;
}

export interface SessionState {
  readonly status: SessionWorkflowStatus;
  readonly completedAt: string | null;
}

export interface ConfirmationResult {
  readonly status: SessionWorkflowStatus;
  readonly confirmedAt: string;
  readonly payoutQueued: boolean;
}

export const sessionWorkflowId = (sessionId: string): string => `session:${sessionId}`;

/** Pause, resume or complete; answers once the database holds the new status. */
export const changeSessionStatusUpdate = defineUpdate<SessionState, [SessionStatusChange]>('changeStatus');
/** Starts Agent 2 on a completed session; answers once the session is analyzing (or already past it). */
export const analyzeSessionUpdate = defineUpdate<SessionState, []>('analyze');
/** The tester's confirmation: the human-in-the-loop gate. Answers once the payout is queued. */
export const confirmSessionUpdate = defineUpdate<ConfirmationResult, [Confirmation]>('confirm');
export const sessionStatusQuery = defineQuery<SessionWorkflowStatus>('status');
/**
 * From the AI retry schedule: an agent step this workflow queued while every provider was down
 * has settled (its job is complete or failed).
 */
export const aiWorkCompletedSignal = defineSignal<[AiWorkCompletion]>('aiWorkCompleted');

/** The failure type a refused transition raises; the API turns it into 409. */
export const INVALID_SESSION_TRANSITION = 'InvalidSessionTransition';
/** activities/ai/job-steps.ts's non-retryable failure: the job or its session is not where the step expects it. */
const AGENT_INPUT_ERROR = 'AgentInputError';

const {
  recordSessionStatus,
  recordConfirmation,
  queueSessionPayment,
  queueAnalysisJob,
  recordReportFailure,
  sanitiseVoiceSegments,
  failAgentJob,
  agentJobStatus,
  signalStudy,
} = proxyActivities<SessionActivities & PrivacyActivities & AiActivities & StudyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// Agents get a few attempts: a failed analysis returns the session to completed, where analyze
// can start it again; a failed report is tried again later (below) and never holds the payout.
// A provider outage is no failure: the job waits in the AI retry queue and the workflow waits for
// its signal. They heartbeat, so a worker that dies mid-agent costs the heartbeat timeout.
const { runAgentJob } = proxyActivities<AiActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [AGENT_INPUT_ERROR] },
});

/** How often a workflow waiting for the AI retry schedule's signal re-reads its job (the schedule's interval). */
export const SETTLED_RECHECK = '15 minutes';
/** Agent 3 is tried again after this, doubling up to REPORT_RETRY_MAX_MS, for as long as it fails. */
export const REPORT_RETRY_FIRST_MS = 60_000;
const REPORT_RETRY_MAX_MS = 60 * 60_000;

export type SessionTransition = { readonly next: SessionWorkflowStatus } | { readonly refusal: string };

/** Where an action leads from the current status, or a refusal naming the state it requires. */
export function nextSessionStatus(
  current: RecordedSessionStatus,
  action: SessionStatusAction,
): SessionTransition {
  if (action === 'pause') {
    return current === 'active'
      ? { next: 'paused' }
      : { refusal: `Session must be active to pause (it is ${current})` };
  }
  if (action === 'resume') {
    return current === 'paused'
      ? { next: 'active' }
      : { refusal: `Session must be paused to resume (it is ${current})` };
  }
  return current === 'active' || current === 'paused'
    ? { next: 'completed' }
    : { refusal: `Session must be active or paused to complete (it is ${current})` };
}

/** Analyze needs a completed session; a run already under way or done is answered, not refused. */
export function analyzeRefusal(current: RecordedSessionStatus): string | undefined {
  return ['completed', 'analyzing', 'analyzed'].includes(current)
    ? undefined
    : `Session must be completed to analyze (it is ${current})`;
}

export function confirmRefusal(current: RecordedSessionStatus): string | undefined {
  return current === 'analyzed' ? undefined : `Session must be analyzed to confirm (it is ${current})`;
}

const refuse = (message: string) => ApplicationFailure.create({ type: INVALID_SESSION_TRANSITION, message });

/**
 * Owns a session's life: active <-> paused -> completed (by the tester, or by a durable timer at
 * the study's time limit) -> analyzing -> analyzed (Agent 2) -> the tester's confirmation, which
 * nothing skips and no timer replaces -> confirmed -> Agent 3 on confirmed notes -> payout queued.
 * Every change is recorded in the database by an activity before it is reported, one at a time.
 */
export async function sessionWorkflow(input: SessionWorkflowInput): Promise<void> {
  const { sessionId, jobId } = input;
  let status: SessionWorkflowStatus = input.status ?? 'active';
  let completedAt: string | null = null;
  let changing = false;
  let analysisRequested = false;
  let confirmedAt: string | undefined;
  let reportJobId: string | undefined;
  let payoutQueued = false;
  /** Agent steps the AI retry schedule settled after every provider had been down. */
  const settledByRetry = new Map<string, AiWorkCompletion['status']>();
  const notify = { workflowId: sessionWorkflowId(sessionId), signal: aiWorkCompletedSignal.name };

  // As in the study workflow: waiters re-check after waking, and nothing awaits between a check
  // and the `changing = true` that claims the next change. So the wait is written inline as
  // `while (changing) await condition(...)`: a helper awaited even when nothing is changing would
  // yield, and two handlers of one activation could then both pass their check on the old status.
  const settled = () => !changing;
  async function moveTo(next: SessionWorkflowStatus, at?: string): Promise<void> {
    changing = true;
    try {
      await recordSessionStatus({ sessionId, status: next, ...(at ? { completedAt: at } : {}) });
      status = next;
      if (at) completedAt = at;
    } finally {
      changing = false;
    }
  }
  const state = (): SessionState => ({ status, completedAt });

  setHandler(sessionStatusQuery, () => status);
  setHandler(aiWorkCompletedSignal, (completion) => {
    settledByRetry.set(completion.agentJobId, completion.status);
  });
  /**
   * A job the retry schedule has taken over: its outcome, whenever the signal comes. A signal that
   * never arrives (the schedule's run could not deliver it) would leave the session waiting for
   * ever, so a durable timer re-reads the job's status every SETTLED_RECHECK.
   */
  async function settledLater(jobId: string): Promise<AiWorkCompletion['status']> {
    for (;;) {
      if (await condition(() => settledByRetry.has(jobId), SETTLED_RECHECK))
        return settledByRetry.get(jobId)!;
      const stored = await agentJobStatus({ jobId });
      if (stored !== 'queued') return stored;
    }
  }
  setHandler(
    changeSessionStatusUpdate,
    async ({ action, completedAt: at }) => {
      while (changing) await condition(settled);
      const transition = nextSessionStatus(status, action);
      if ('refusal' in transition) throw refuse(transition.refusal);
      await moveTo(transition.next, action === 'complete' ? (at ?? new Date().toISOString()) : undefined);
      return state();
    },
    {
      validator: ({ action }: SessionStatusChange) => {
        if (changing) return;
        const transition = nextSessionStatus(status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
      },
    },
  );
  setHandler(
    analyzeSessionUpdate,
    async () => {
      // A run under way is answered as it stands: the caller polls GET until analyzed.
      if (status === 'analyzing') return state();
      while (changing) await condition(settled);
      const refusal = analyzeRefusal(status);
      if (refusal) throw refuse(refusal);
      if (status === 'completed') {
        analysisRequested = true;
        await condition(() => status !== 'completed');
      }
      return state();
    },
    {
      validator: () => {
        const refusal = changing ? undefined : analyzeRefusal(status);
        if (refusal) throw refuse(refusal);
      },
    },
  );
  setHandler(
    confirmSessionUpdate,
    async (confirmation: Confirmation): Promise<ConfirmationResult> => {
      while (changing) await condition(settled);
      const refusal = confirmRefusal(status);
      if (refusal) throw refuse(refusal);
      changing = true;
      try {
        const jobId = uuid4();
        await recordConfirmation({ sessionId, confirmation, reportJobId: jobId });
        status = 'confirmed';
        confirmedAt = confirmation.confirmedAt;
        reportJobId = jobId;
      } finally {
        changing = false;
      }
      await condition(() => payoutQueued);
      return { status, confirmedAt: confirmation.confirmedAt, payoutQueued };
    },
    {
      validator: (_confirmation: Confirmation) => {
        const refusal = changing ? undefined : confirmRefusal(status);
        if (refusal) throw refuse(refusal);
      },
    },
  );

  // The time limit: a durable timer, so a worker restart or a long pause does not lose it.
  const deadline = Date.parse(input.startedAt) + input.maxDurationMinutes * 60_000;
  const running = () => status === 'active' || status === 'paused';
  const endedInTime = await condition(() => !running(), Math.max(0, deadline - Date.now()));
  if (!endedInTime) {
    while (changing) await condition(settled);
    if (running()) await moveTo('completed', new Date(deadline).toISOString());
  }

  /**
   * Agent 2, once PII is out of the voice segments it reads. When every provider is down the job
   * waits in the AI retry queue and the session stays analyzing until the schedule settles it;
   * meanwhile `changing` is off, so updates are judged (and refused) against `analyzing` at once.
   */
  async function analyse(): Promise<AiWorkCompletion['status']> {
    const jobId = uuid4();
    let outcome: AgentJobOutcome;
    changing = true;
    try {
      for (let more = true; more;) more = (await sanitiseVoiceSegments({ sessionId })).more;
      await queueAnalysisJob({ sessionId, jobId });
      outcome = await runAgentJob({ jobId, notify });
    } catch (error) {
      log.warn('Agent 2 failed; the session waits for analyze', { sessionId, error: String(error) });
      await failAgentJob({ jobId, reason: failureMessage(error) });
      return 'failed';
    } finally {
      changing = false;
    }
    if (outcome.status !== 'queued') return outcome.status;
    log.info('Agent 2 waits for an AI provider (queued AI work)', {
      sessionId,
      jobId,
      reason: outcome.reason,
    });
    return settledLater(jobId);
  }

  // Agent 2 starts right after completion. A failed run returns the session to completed, and
  // POST analyze starts it again.
  for (;;) {
    while (changing) await condition(settled);
    await moveTo('analyzing');
    if ((await analyse()) === 'complete') {
      await moveTo('analyzed');
      break;
    }
    await moveTo('completed');
    analysisRequested = false;
    await condition(() => analysisRequested);
  }

  // The human-in-the-loop gate: only the tester's confirmation moves on, however long it takes.
  await condition(() => confirmedAt !== undefined);

  // The tester did their part: the payout is queued first, whatever becomes of the report.
  const payment = await queueSessionPayment({ sessionId });
  payoutQueued = true;
  // Paid once confirmed (spec): the payout starts now, on a worker that moves money. The study's
  // completion and POST /api/billing/payout start the same workflow id, so they only catch up.
  if (payment?.paymentId && payment.payoutsEnabled) await startPayoutChild({ paymentId: payment.paymentId });

  // Signal-with-start: a study without a workflow (the seeded demo study, or one whose start failed
  // after its row was committed) gets it from its recorded status, so the count is never lost.
  await signalStudy({ jobId, signal: 'sessionConfirmed', sessionId });

  // Agent 3, after the payout: a report that waits for a provider holds nothing else up.
  const outcome = await buildReport(sessionId, reportJobId!, notify);
  if (outcome === 'queued') await settledLater(reportJobId!);
  // The study waits for every tester report before its own (Agent 4 on completion).
  await signalStudy({ jobId, signal: 'sessionReported', sessionId });
  await condition(allHandlersFinished);
}

/**
 * Agent 3 on the job queued at confirmation, until it succeeds: after each failed round of
 * attempts the job records the error and the retry time, and the workflow waits (1 minute,
 * doubling up to an hour) before the next. When every provider is down the job is left to the AI
 * retry schedule (`queued`). Only a job whose input is not there (a bug, not an outage) stops it.
 */
async function buildReport(
  sessionId: string,
  jobId: string,
  notify: { workflowId: string; signal: string },
): Promise<'complete' | 'failed' | 'queued'> {
  for (let delay = REPORT_RETRY_FIRST_MS; ; delay = Math.min(delay * 2, REPORT_RETRY_MAX_MS)) {
    try {
      return (await runAgentJob({ jobId, notify })).status;
    } catch (error) {
      if (isAgentInputError(error)) {
        log.error('Agent 3 cannot run on this session', { sessionId, error: String(error) });
        await failAgentJob({ jobId, reason: failureMessage(error) });
        return 'failed';
      }
      log.warn('Agent 3 failed; retrying later', { sessionId, error: String(error), delay });
      await recordReportFailure({ jobId, error: failureMessage(error), retryInSeconds: delay / 1000 });
      await sleep(delay);
    }
  }
}

function isAgentInputError(error: unknown): boolean {
  return (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.type === AGENT_INPUT_ERROR
  );
}

const failureMessage = (error: unknown): string =>
  error instanceof ActivityFailure && error.cause ? error.cause.message : String(error);
