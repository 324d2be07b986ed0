// The session's state machine as pure functions: the workflow judges every change with them, and
// the API judges the recorded status with the same ones to answer 409 before reaching the workflow.
import type { SessionStatus } from '../lib/domain.ts';

/** What a session's workflow moves through (`cancelled` only from active or paused, its tester suspended). */
export type SessionWorkflowStatus = SessionStatus;
export type SessionStatusAction = 'pause' | 'resume' | 'complete';

export type SessionTransition = { readonly next: SessionWorkflowStatus } | { readonly refusal: string };

/** Where an action leads from the current status, or a refusal naming the state it requires. */
export function nextSessionStatus(current: SessionStatus, action: SessionStatusAction): SessionTransition {
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
export function analyzeRefusal(current: SessionStatus): string | undefined {
  return ['completed', 'analyzing', 'analyzed'].includes(current)
    ? undefined
    : `Session must be completed to analyze (it is ${current})`;
}

export function confirmRefusal(current: SessionStatus): string | undefined {
  return current === 'analyzed' ? undefined : `Session must be analyzed to confirm (it is ${current})`;
}
