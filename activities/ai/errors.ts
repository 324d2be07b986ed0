import { ALL_PROVIDERS_UNAVAILABLE } from '../../lib/failures.ts';

/** Every configured provider failed: the step is queued for the 15-minute retry. */
export class AllProvidersUnavailableError extends Error {
  override readonly name = ALL_PROVIDERS_UNAVAILABLE;

  constructor(readonly failures: readonly string[]) {
    super(`Every AI provider failed: ${failures.join('; ')}`);
  }
}

/** A provider answered, but not with what was asked (not JSON, wrong shape, unknown ids). */
export class ProviderOutputError extends Error {
  override readonly name = 'ProviderOutputError';
}

/** The reason a provider failed, short enough for a log line or a job's error. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { status?: unknown }).status;
  const message = error.message.replace(/\s+/g, ' ').slice(0, 300);
  return typeof status === 'number' ? `HTTP ${status}: ${message}` : `${error.name}: ${message}`;
}
