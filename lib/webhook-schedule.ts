// When an outgoing webhook delivery is tried again (docs/decisions/webhooks.md): after the first
// failed attempt one minute, then three times longer each time up to eight hours, for three days.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** How long a delivery keeps being tried, from its first attempt. */
export const WEBHOOK_RETRY_WINDOW_MS = 72 * HOUR_MS;
/** The longest wait between two attempts. */
export const WEBHOOK_MAX_RETRY_DELAY_MS = 8 * HOUR_MS;
/** How long one attempt waits for the receiver's answer before it counts as failed. */
export const WEBHOOK_ATTEMPT_TIMEOUT_MS = 10_000;

/** The wait after the `failedAttempts`-th failed attempt: 1 min, 3 min, 9 min, 27 min, 81 min, 4 h 3 min, then 8 h. */
export function webhookRetryDelayMs(failedAttempts: number): number {
  return Math.min(MINUTE_MS * 3 ** Math.max(0, failedAttempts - 1), WEBHOOK_MAX_RETRY_DELAY_MS);
}

/**
 * The wait before the next attempt, or null when that attempt would start past the window: the
 * delivery has failed for good.
 */
export function nextWebhookAttemptDelayMs(failedAttempts: number, elapsedMs: number): number | null {
  const delay = webhookRetryDelayMs(failedAttempts);
  return elapsedMs + delay <= WEBHOOK_RETRY_WINDOW_MS ? delay : null;
}
