import { WorkflowUpdateFailedError } from '@temporalio/client';
import { failureOfType } from '../lib/failures.ts';
import { conflict } from '../lib/errors.ts';

/**
 * Sends an update and turns the workflow's refusal of a transition (a failure of `refusalType`,
 * raised when the state moved since the caller read it) into the 409 the route would have given.
 */
export async function updateOrConflict<T>(refusalType: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const refusal =
      error instanceof WorkflowUpdateFailedError ? failureOfType(error, refusalType) : undefined;
    throw refusal ? conflict(refusal.message) : error;
  }
}
