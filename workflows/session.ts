import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  defineQuery,
  defineUpdate,
  getExternalWorkflowHandle,
  log,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { Confirmation, SessionActivities } from '../activities/sessions/session-activities.ts';
import { sessionConfirmedSignal, studyWorkflowId } from './study.ts';

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

/** The failure type a refused transition raises; the API turns it into 409. */
export const INVALID_SESSION_TRANSITION = 'InvalidSessionTransition';

const { recordSessionStatus, recordConfirmation, queueSessionPayment } = proxyActivities<SessionActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});
// Agents get a few attempts: a failed analysis returns the session to completed, where analyze
// can start it again; a failed report leaves the payout untouched.
const { analyzeSession, generateSessionReport } = proxyActivities<SessionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['SessionStateError'] },
});

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
  let status: SessionWorkflowStatus = 'active';
  let completedAt: string | null = null;
  let changing = false;
  let analysisRequested = false;
  let confirmedAt: string | undefined;
  let payoutQueued = false;

  // As in the study workflow: waiters re-check after waking, and nothing awaits between a check
  // and the `changing = true` that claims the next change.
  const settle = async () => {
    while (changing) await condition(() => !changing);
  };
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
  setHandler(
    changeSessionStatusUpdate,
    async ({ action, completedAt: at }) => {
      await settle();
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
      await settle();
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
      await settle();
      const refusal = confirmRefusal(status);
      if (refusal) throw refuse(refusal);
      changing = true;
      try {
        await recordConfirmation({ sessionId, confirmation });
        status = 'confirmed';
        confirmedAt = confirmation.confirmedAt;
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
    await settle();
    if (running()) await moveTo('completed', new Date(deadline).toISOString());
  }

  // Agent 2 starts right after completion. A failed run returns the session to completed, and
  // POST analyze starts it again.
  for (;;) {
    await settle();
    await moveTo('analyzing');
    changing = true;
    try {
      await analyzeSession({ sessionId });
      status = 'analyzed';
      break;
    } catch (error) {
      log.warn('Agent 2 failed; the session waits for analyze', { sessionId, error: String(error) });
    } finally {
      changing = false;
    }
    await moveTo('completed');
    analysisRequested = false;
    await condition(() => analysisRequested);
  }

  // The human-in-the-loop gate: only the tester's confirmation moves on, however long it takes.
  await condition(() => confirmedAt !== undefined);

  try {
    await generateSessionReport({ sessionId });
  } catch (error) {
    // The tester did their part: a report that cannot be built does not hold back the payout.
    log.error('Agent 3 failed', { sessionId, error: String(error) });
  }
  await queueSessionPayment({ sessionId });
  payoutQueued = true;

  try {
    await getExternalWorkflowHandle(studyWorkflowId(jobId)).signal(sessionConfirmedSignal, sessionId);
  } catch (error) {
    // A study already completed or archived has ended its workflow; its count no longer matters.
    log.info('Study workflow did not take the confirmation', { jobId, error: String(error) });
  }
  await condition(allHandlersFinished);
}
