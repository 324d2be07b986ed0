import { WorkflowUpdateFailedError } from '@temporalio/client';
import { RETRY_AFTER_SECONDS } from '../clients/unavailable.ts';
import { failureOfType, STUDY_RUN_SWITCHING } from '../lib/failures.ts';
import { ApiError, conflict } from '../lib/errors.ts';

/** How long an update is sent again while the study's run switches (it takes well under a second). */
const RUN_SWITCH_WAIT_MS = 30_000;
const RUN_SWITCH_FIRST_RETRY_MS = 50;
const RUN_SWITCH_MAX_RETRY_MS = 1_000;

const refusedAs = (error: unknown, type: string) =>
  error instanceof WorkflowUpdateFailedError ? failureOfType(error, type) : undefined;

/**
 * Sends an update to a study's workflow, again while its run is continuing as new: a draining run
 * refuses new updates (`STUDY_RUN_SWITCHING`, which leaves no trace in its history) so that a
 * steady stream of them cannot hold it past its history limit, and the next run takes them. Past
 * `RUN_SWITCH_WAIT_MS` the caller hears 503, as when Temporal is away.
 */
export async function sendOverRunSwitch<T>(send: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let wait = RUN_SWITCH_FIRST_RETRY_MS; ; wait = Math.min(wait * 2, RUN_SWITCH_MAX_RETRY_MS)) {
    try {
      return await send();
    } catch (error) {
      if (!refusedAs(error, STUDY_RUN_SWITCHING)) throw error;
      if (Date.now() - started > RUN_SWITCH_WAIT_MS) {
        throw new ApiError('unavailable', 'The study is busy moving to a new run: try again shortly', {
          'Retry-After': String(RETRY_AFTER_SECONDS),
        });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

/**
 * Sends an update (over a run switch, `sendOverRunSwitch`) and turns the workflow's refusal of a
 * transition (a failure of `refusalType`, raised when the state moved since the caller read it)
 * into the 409 the route would have given.
 */
export async function updateOrConflict<T>(refusalType: string, send: () => Promise<T>): Promise<T> {
  try {
    return await sendOverRunSwitch(send);
  } catch (error) {
    const refusal = refusedAs(error, refusalType);
    throw refusal ? conflict(refusal.message) : error;
  }
}
