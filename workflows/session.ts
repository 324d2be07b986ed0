import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  patched,
  proxyActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import { Mutex } from 'async-mutex';
import type { AiActivities } from '../activities/ai/ai-activities.ts';
import type { MilestoneActivities } from '../activities/notify/milestone-activities.ts';
import type { PrivacyActivities } from '../activities/privacy/privacy-activities.ts';
import type { SessionActivities } from '../activities/sessions/session-activities.ts';
import type { StudyActivities } from '../activities/studies/study-activities.ts';
import { INVALID_SESSION_TRANSITION, INVALID_TASK_TIME } from '../lib/failures.ts';
import {
  buildReport,
  failureMessage,
  runAgentJob,
  SETTLED_RECHECK,
  type AgentNotice,
} from './agent-steps.ts';
import { startGamificationChild } from './gamification.ts';
import {
  aiWorkCompletedSignal,
  analyzeSessionUpdate,
  cancelSessionSignal,
  changeSessionStatusUpdate,
  confirmSessionUpdate,
  recordTaskProgressUpdate,
  sessionStatusQuery,
  sessionWorkflowId,
  type AiWorkCompletion,
  type Confirmation,
  type ConfirmationResult,
  type SessionState,
  type SessionStatusChange,
  type SessionWorkflowInput,
  type TaskProgress,
} from './messages/session.ts';
import { deliverAll } from './notification.ts';
import { startPayoutChild } from './payout.ts';
import {
  analyzeRefusal,
  confirmRefusal,
  nextSessionStatus,
  type SessionWorkflowStatus,
  type SessionStatusAction,
} from './session-transitions.ts';
import {
  applyAttempt,
  emptyTaskBook,
  judgeTaskProgress,
  notePause,
  unfinishedAttempt,
  type TaskAttemptChange,
  type TaskBook,
} from './task-progress.ts';

const {
  recordSessionStatus,
  recordTaskAttempt,
  recordConfirmation,
  queueSessionPayment,
  queueAnalysisJob,
  sanitiseVoiceSegments,
  failAgentJob,
  agentJobStatus,
  signalStudy,
  queueReviewRequest,
  queueReportReady,
} = proxyActivities<
  SessionActivities & PrivacyActivities & AiActivities & StudyActivities & MilestoneActivities
>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '1 minute' },
});

/** The confirmation, once recorded with its payment queued: what the rest of the life needs. */
interface ConfirmedSession {
  readonly reportJobId: string;
  readonly payment: { readonly paymentId: string | null; readonly payoutsEnabled: boolean };
}

/** Everything a session's workflow knows; changed only while holding the workflow's lock. */
interface SessionWorkflowState {
  status: SessionWorkflowStatus;
  completedAt: string | null;
  /** `POST .../analyze` asked for another Agent 2 run after a failed one. */
  analysisRequested: boolean;
  /** A failed run's return to completed is being recorded (the stored status may read completed). */
  failureBeingRecorded: boolean;
  confirmed: ConfirmedSession | undefined;
  /** Agent steps the AI retry schedule settled after every provider had been down. */
  readonly settledByRetry: Map<string, AiWorkCompletion['status']>;
  /** The tester's attempts at the study's tasks, and the pauses their time on task leaves out. */
  readonly tasks: TaskBook;
}

const refuse = (message: string) => ApplicationFailure.create({ type: INVALID_SESSION_TRANSITION, message });
const impossibleTime = (message: string) => ApplicationFailure.create({ type: INVALID_TASK_TIME, message });

/**
 * Owns a session's life: active <-> paused -> completed (by the tester, or by a durable timer at
 * the study's time limit) -> analyzing -> analyzed (Agent 2) -> the tester's confirmation, which
 * nothing skips and no timer replaces -> confirmed -> payout queued -> Agent 3 on confirmed notes.
 * Every change is recorded in the database by an activity before it is reported, one at a time:
 * each update handler and each step of the body holds `lock` from its check to its record.
 */
export async function sessionWorkflow(input: SessionWorkflowInput): Promise<void> {
  const { sessionId, studyId } = input;
  const state: SessionWorkflowState = {
    status: input.status ?? 'active',
    completedAt: null,
    analysisRequested: false,
    failureBeingRecorded: false,
    confirmed: undefined,
    settledByRetry: new Map(),
    tasks: emptyTaskBook(),
  };
  // A session whose workflow starts late while paused (the lifecycle reconciler): paused from here.
  if (state.status === 'paused') notePause(state.tasks, true, new Date().toISOString());
  const lock = new Mutex();
  const notify: AgentNotice = {
    workflowId: sessionWorkflowId(sessionId),
    signal: aiWorkCompletedSignal.name,
  };
  const view = (): SessionState => ({ status: state.status, completedAt: state.completedAt });

  /** Records the next status; only called while holding the lock. */
  async function moveTo(next: SessionWorkflowStatus, completedAt?: string): Promise<void> {
    await recordSessionStatus({ sessionId, status: next, ...(completedAt ? { completedAt } : {}) });
    state.status = next;
    if (completedAt) state.completedAt = completedAt;
  }
  /** Records a task attempt's change; only called while holding the lock. */
  async function recordAttempt(change: TaskAttemptChange): Promise<void> {
    await recordTaskAttempt({ sessionId, ...change });
    applyAttempt(state.tasks, change);
  }
  /** Ends the session at `at`: a task still in progress is recorded unfinished first. */
  async function end(status: 'completed' | 'cancelled', at: string): Promise<void> {
    const unfinished = unfinishedAttempt(state.tasks, at);
    // An attempt that cannot be recorded must not keep the session from ending.
    if (unfinished) {
      await recordAttempt(unfinished).catch((error: unknown) =>
        log.warn('The unfinished task attempt was not recorded', { sessionId, error: String(error) }),
      );
    }
    if (status === 'completed') await moveTo('completed', at);
    else await moveTo('cancelled');
  }
  const complete = (at: string) => end('completed', at);
  /**
   * Validators judge only a settled status: a change in flight may make the update valid (or not),
   * and the handler judges again once it holds the lock.
   */
  const judge = (refusal: string | undefined): void => {
    if (refusal && !lock.isLocked()) throw refuse(refusal);
  };
  const refusalOf = (action: SessionStatusAction): string | undefined => {
    const transition = nextSessionStatus(state.status, action);
    return 'refusal' in transition ? transition.refusal : undefined;
  };

  setHandler(sessionStatusQuery, () => state.status);
  setHandler(aiWorkCompletedSignal, (completion) => {
    state.settledByRetry.set(completion.agentJobId, completion.status);
  });
  let cancelRequested = false;
  setHandler(cancelSessionSignal, () => {
    // A history an earlier worker recorded took this signal without acting on it: so it stays.
    if (patched('cancel-session')) cancelRequested = true;
  });
  setHandler(
    changeSessionStatusUpdate,
    ({ action, completedAt }) =>
      lock.runExclusive(async () => {
        const transition = nextSessionStatus(state.status, action);
        if ('refusal' in transition) throw refuse(transition.refusal);
        if (action === 'complete') {
          await complete(completedAt ?? new Date().toISOString());
        } else {
          // The moment the update arrived, not the moment its record landed.
          const at = new Date().toISOString();
          await moveTo(transition.next);
          notePause(state.tasks, action === 'pause', at);
        }
        return view();
      }),
    { validator: ({ action }: SessionStatusChange) => judge(refusalOf(action)) },
  );
  const taskRefusal = (progress: TaskProgress) => {
    const judged = judgeTaskProgress(state.tasks, state.status, progress);
    if ('conflict' in judged) return refuse(judged.conflict);
    if ('invalid' in judged) return impossibleTime(judged.invalid);
    return judged.change;
  };
  setHandler(
    recordTaskProgressUpdate,
    (progress) =>
      lock.runExclusive(async () => {
        const judged = taskRefusal(progress);
        if (judged instanceof ApplicationFailure) throw judged;
        await recordAttempt(judged);
        return view();
      }),
    {
      validator: (progress: TaskProgress) => {
        const judged = taskRefusal(progress);
        if (judged instanceof ApplicationFailure && !lock.isLocked()) throw judged;
      },
    },
  );
  setHandler(
    analyzeSessionUpdate,
    async () => {
      // A run under way is answered as it stands: the caller polls GET until analyzed.
      if (state.status === 'analyzing') {
        // Unless it failed and is returning to completed, which a GET may already show: this is
        // that status's analyze, taken up once it is recorded. Histories recorded before this
        // replay without it.
        if (state.failureBeingRecorded && patched('analyze-while-failure-recorded')) {
          state.analysisRequested = true;
        }
        return view();
      }
      await lock.runExclusive(() => {
        const refusal = analyzeRefusal(state.status);
        if (refusal) throw refuse(refusal);
        if (state.status === 'completed') state.analysisRequested = true;
      });
      await condition(() => state.status !== 'completed');
      return view();
    },
    { validator: () => judge(analyzeRefusal(state.status)) },
  );
  setHandler(
    confirmSessionUpdate,
    (confirmation: Confirmation) =>
      lock.runExclusive(async (): Promise<ConfirmationResult> => {
        const refusal = confirmRefusal(state.status);
        if (refusal) throw refuse(refusal);
        const reportJobId = uuid4();
        await recordConfirmation({ sessionId, confirmation, reportJobId });
        state.status = 'confirmed';
        // The tester did their part: the payout is queued before the answer, whatever becomes of the report.
        const payment = await queueSessionPayment({ sessionId });
        state.confirmed = { reportJobId, payment };
        return { status: state.status, confirmedAt: confirmation.confirmedAt, payoutQueued: true };
      }),
    { validator: (_confirmation: Confirmation) => judge(confirmRefusal(state.status)) },
  );

  /**
   * A job the retry schedule has taken over: its outcome, whenever the signal comes. A signal that
   * never arrives (the schedule's run could not deliver it) would leave the session waiting for
   * ever, so a durable timer re-reads the job's status every SETTLED_RECHECK.
   */
  async function settledLater(agentJobId: string): Promise<AiWorkCompletion['status']> {
    for (;;) {
      if (await condition(() => state.settledByRetry.has(agentJobId), SETTLED_RECHECK)) {
        return state.settledByRetry.get(agentJobId)!;
      }
      const stored = await agentJobStatus({ jobId: agentJobId });
      if (stored !== 'queued') return stored;
    }
  }

  /**
   * Agent 2, once PII is out of the voice segments it reads; called while holding the lock.
   * When every provider is down the job waits in the AI retry queue: `queued` with its id.
   */
  async function analyse(): Promise<AiWorkCompletion['status'] | { queued: string }> {
    const analysisJobId = uuid4();
    try {
      for (let more = true; more;) more = (await sanitiseVoiceSegments({ sessionId })).more;
      await queueAnalysisJob({ sessionId, jobId: analysisJobId });
      const outcome = await runAgentJob({ jobId: analysisJobId, notify });
      if (outcome.status !== 'queued') return outcome.status;
      log.info('Agent 2 waits for an AI provider (queued AI work)', {
        sessionId,
        analysisJobId,
        reason: outcome.reason,
      });
      return { queued: analysisJobId };
    } catch (error) {
      log.warn('Agent 2 failed; the session waits for analyze', { sessionId, error: String(error) });
      await failAgentJob({ jobId: analysisJobId, reason: failureMessage(error) });
      return 'failed';
    }
  }
  /** Records Agent 2's outcome (holding the lock): analyzed, or back to completed to wait for analyze. */
  async function recordAnalysis(outcome: AiWorkCompletion['status']): Promise<boolean> {
    if (outcome === 'complete') {
      await moveTo('analyzed');
      return true;
    }
    state.analysisRequested = false;
    state.failureBeingRecorded = true;
    await moveTo('completed');
    state.failureBeingRecorded = false;
    return false;
  }

  // The time limit: a durable timer, so a worker restart or a long pause does not lose it.
  const limitFrom = Math.max(Date.parse(input.startedAt), input.dueAt ? Date.parse(input.dueAt) : 0);
  const deadline = limitFrom + input.maxDurationMinutes * 60_000;
  const running = () => state.status === 'active' || state.status === 'paused';
  if (!(await condition(() => !running() || cancelRequested, Math.max(0, deadline - Date.now())))) {
    await lock.runExclusive(async () => {
      if (running()) await complete(new Date(deadline).toISOString());
    });
  }
  if (cancelRequested) {
    // Only a live session is cancelled; one its tester completed first goes on to its analysis.
    await lock.runExclusive(async () => {
      if (running()) await end('cancelled', new Date().toISOString());
    });
  }
  if (state.status === 'cancelled') {
    await signalStudy({ studyId, signal: 'sessionCancelled', sessionId });
    await condition(allHandlersFinished);
    return;
  }

  // Agent 2 starts right after completion. A failed run returns the session to completed, and
  // POST analyze starts it again. While the retry schedule holds the job the lock is free, so
  // updates are judged (and refused) against `analyzing` at once.
  for (;;) {
    let run = await lock.runExclusive(async () => {
      await moveTo('analyzing');
      const outcome = await analyse();
      return typeof outcome === 'string' ? recordAnalysis(outcome) : outcome;
    });
    if (typeof run !== 'boolean') {
      const outcome = await settledLater(run.queued);
      run = await lock.runExclusive(() => recordAnalysis(outcome));
    }
    if (run) break;
    await condition(() => state.analysisRequested);
  }

  // The findings await the tester: the confirmation request with the review page's link (spec).
  // Histories recorded before these messages existed replay without them.
  const notices = patched('milestone-notices');
  const delivered: Promise<void>[] = [];
  if (notices) delivered.push(deliverAll([await queueReviewRequest({ sessionId })]));

  // The human-in-the-loop gate: only the tester's confirmation moves on, however long it takes.
  await condition(() => state.confirmed !== undefined);
  const { reportJobId, payment } = state.confirmed!;

  // Paid once confirmed (spec): the payout starts now, on a worker that moves money. The study's
  // completion and POST /api/billing/payout start the same workflow id, so they only catch up.
  if (payment.paymentId && payment.payoutsEnabled) await startPayoutChild({ paymentId: payment.paymentId });

  // Signal-with-start: a study without a workflow (the seeded demo study, or one whose start failed
  // after its row was committed) gets it from its recorded status, so the count is never lost.
  await signalStudy({ studyId, signal: 'sessionConfirmed', sessionId });

  // Agent 3, after the payout: a report that waits for a provider holds nothing else up.
  if ((await buildReport(sessionId, reportJobId, notify)) === 'queued') await settledLater(reportJobId);
  // "Report ready" to the business once the tester report exists.
  if (notices) delivered.push(deliverAll(await queueReportReady({ agentJobId: reportJobId })));
  // The study waits for every tester report before its own (Agent 4 on completion).
  await signalStudy({ studyId, signal: 'sessionReported', sessionId });
  // Points, level and badges once the organization has rated the session (or waited for it).
  if (patched('gamification')) await startGamificationChild(sessionId);
  await condition(allHandlersFinished);
  await Promise.all(delivered);
}
