// The session workflow's messages (workflows/session.ts): its id and input, the updates the API
// sends (status changes, analysis, the tester's confirmation), its status query and the signal of
// the AI retry schedule, with their payloads. Dependency-free.
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { AgentKind, NoteDecisionInput } from '../../lib/domain.ts';
import type { SessionStatusAction, SessionWorkflowStatus } from '../session-transitions.ts';
import type { TaskProgress } from '../task-progress.ts';

export type { TaskProgress };

export interface SessionWorkflowInput {
  readonly sessionId: string;
  readonly studyId: string;
  /** ISO timestamp; the time limit counts from here, pauses included. */
  readonly startedAt: string;
  readonly maxDurationMinutes: number;
  /**
   * ISO timestamp; for a session an accepted offer created, when its test is due: the time limit
   * then counts from here instead (the tester may start any time before it).
   */
  readonly dueAt?: string;
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

/** What the updates answer: the session as the database now holds it. */
export interface SessionState {
  readonly status: SessionWorkflowStatus;
  readonly completedAt: string | null;
}

/** The tester's confirmation of the session's findings, with their rating. */
export interface Confirmation {
  readonly rating: number;
  readonly comment?: string | undefined;
  readonly decisions: readonly NoteDecisionInput[];
  readonly confirmedAt: string;
}

export interface ConfirmationResult {
  readonly status: SessionWorkflowStatus;
  readonly confirmedAt: string;
  readonly payoutQueued: boolean;
}

/** What a workflow that asked to be told (`payload.notify`) receives once its queued step settles. */
export interface AiWorkCompletion {
  readonly agentJobId: string;
  readonly step: AgentKind;
  readonly status: 'complete' | 'failed';
}

export const sessionWorkflowId = (sessionId: string): string => `session:${sessionId}`;

/** Pause, resume or complete; answers once the database holds the new status. */
export const changeSessionStatusUpdate = defineUpdate<SessionState, [SessionStatusChange]>('changeStatus');
/** The tester began, did or gave up on a task; answers once the attempt is recorded. */
export const recordTaskProgressUpdate = defineUpdate<SessionState, [TaskProgress]>('taskProgress');
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
/**
 * Ends a live (active or paused) session as `cancelled`: its tester was suspended. Ignored once the
 * session has completed: what the tester did stands.
 */
export const cancelSessionSignal = defineSignal<[]>('cancel');
