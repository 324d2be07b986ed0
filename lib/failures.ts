// The type names of the failures that cross a boundary: raised by activities as
// `ApplicationFailure.type`, listed by workflows in `nonRetryableErrorTypes` or raised by their
// update validators, and read by the API to choose a status. One pure module, so that workflows
// (which may import nothing with I/O) and activities spell each name the same way.
import { ApplicationFailure } from '@temporalio/common';

/** The agent job or its session is not where the step expects it: a bug or a race, never an outage. */
export const AGENT_INPUT_ERROR = 'AgentInputError';
/** Every configured AI provider failed; the step waits in the AI retry queue. */
export const ALL_PROVIDERS_UNAVAILABLE = 'AllProvidersUnavailable';
/**
 * Every AI provider that may answer later is rate-limited or overloaded: the agent's activity is
 * retried by Temporal after the delay they asked for, before the step waits in the retry queue.
 */
export const AI_PROVIDERS_BUSY = 'AiProvidersBusy';
/** The attempts of an agent job's activity; the last one queues a step whose providers are still busy. */
export const AGENT_JOB_ATTEMPTS = 3;
/** A message that can never be delivered (no chat linked, a secret missing). */
export const PERMANENT_DELIVERY_FAILURE = 'PermanentDeliveryFailure';
/** A session activity found the session missing. */
export const SESSION_STATE_ERROR = 'SessionStateError';
/** A payout was asked for a payment that does not exist. */
export const PAYMENT_NOT_FOUND = 'PaymentNotFound';
/** A full audit's job row is gone. */
export const AUDIT_JOB_MISSING = 'AuditJobMissing';
/** Why an audit stopped, as its workflow and the API tell them apart. */
export const AUDIT_FAILURES = {
  blockedUrl: 'BlockedUrlError',
  pageLoad: 'PageLoadError',
  timeout: 'AuditTimeoutError',
  /** The request's credentials could not be opened (expired, or another secret than the API's). */
  credentials: 'UnusableCredentialsError',
} as const;
/**
 * The study's run is continuing as new and takes no new update: the caller sends it again, and the
 * next run takes it (commands/update-or-conflict.ts).
 */
export const STUDY_RUN_SWITCHING = 'StudyRunSwitching';
/** The study workflow refused a status change that does not apply; the API answers 409. */
export const INVALID_STUDY_TRANSITION = 'InvalidStudyTransition';
/** The session workflow refused a transition that does not apply; the API answers 409. */
export const INVALID_SESSION_TRANSITION = 'InvalidSessionTransition';
/** The session workflow found a task's reported time impossible (an end before its start); 422. */
export const INVALID_TASK_TIME = 'InvalidTaskTime';
/**
 * A proposal decision that no longer applies (the proposal was decided meanwhile, or its study no
 * longer recruits); the API answers 409.
 */
export const PROPOSAL_DECISION_REFUSED = 'ProposalDecisionRefused';
/** An outreach approval that no longer applies (the message was decided meanwhile); the API answers 409. */
export const OUTREACH_DECISION_REFUSED = 'OutreachDecisionRefused';

/**
 * The application failure of `type` that `error` wraps (an activity's failure seen by a workflow,
 * an update's failure seen by a client), or undefined.
 */
export function failureOfType(error: unknown, type: string): ApplicationFailure | undefined {
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof ApplicationFailure && cause.type === type ? cause : undefined;
}
