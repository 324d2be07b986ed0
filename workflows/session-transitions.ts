// The session's state machine as pure functions: the workflow judges every change with them, and
// the API judges the recorded status with the same ones to answer 409 before reaching the workflow.

export type SessionWorkflowStatus =
  'active' | 'paused' | 'completed' | 'analyzing' | 'analyzed' | 'confirmed';
export type SessionStatusAction = 'pause' | 'resume' | 'complete';
/** What the database may also hold: a session withdrawn outside the workflow's life. */
export type RecordedSessionStatus = SessionWorkflowStatus | 'cancelled';

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
