import { ALL_PROVIDERS_UNAVAILABLE } from '../../lib/failures.ts';

/**
 * Why a provider did not answer, as the service acts on it:
 * - `busy`: rate-limited or overloaded (429, 529, 503); it asks to be asked again later.
 * - `unavailable`: unreachable, timed out or broken (other 5xx, network); may be back any time.
 * - `output`: it answered, but not JSON in the answer's schema; another try may do better.
 * - `refused`: it will not take this request as configured (401 and 403: the key; 400, 404 and
 *   422: the model or the request); asking again changes nothing until an operator acts.
 */
export type FailureKind = 'busy' | 'unavailable' | 'output' | 'refused';

export interface ProviderFailure {
  readonly provider: string;
  readonly kind: FailureKind;
  /** Short enough for a log line or a job's error. */
  readonly reason: string;
  /** What the provider's Retry-After asked for, in milliseconds (busy only). */
  readonly retryAfterMs?: number;
}

/** Every configured provider failed: the step is retried later, unless every one refused it. */
export class AllProvidersUnavailableError extends Error {
  override readonly name = ALL_PROVIDERS_UNAVAILABLE;

  constructor(readonly failures: readonly ProviderFailure[]) {
    super(`Every AI provider failed: ${failures.map((f) => `${f.provider}: ${f.reason}`).join('; ')}`);
  }

  /** False when every provider refused the request: a retry would fail the same way. */
  get retryable(): boolean {
    return this.failures.some((failure) => failure.kind !== 'refused');
  }

  /** True when the providers that may answer later are all busy: ask them again soon, not in 15 minutes. */
  get busy(): boolean {
    const retryable = this.failures.filter((failure) => failure.kind !== 'refused');
    return retryable.length > 0 && retryable.every((failure) => failure.kind === 'busy');
  }

  /** The longest Retry-After among the busy providers, when any gave one. */
  get retryAfterMs(): number | undefined {
    const asked = this.failures.flatMap((failure) => (failure.retryAfterMs ? [failure.retryAfterMs] : []));
    return asked.length ? Math.max(...asked) : undefined;
  }
}

/** A provider answered, but not with what was asked (not JSON, wrong shape, unknown ids). */
export class ProviderOutputError extends Error {
  override readonly name = 'ProviderOutputError';
}

const BUSY_STATUSES = new Set([429, 503, 529]);
const REFUSED_STATUSES = new Set([400, 401, 403, 404, 422]);

/** The provider's failure, classified by what each SDK's errors carry (`status`, `headers`). */
export function classifyFailure(provider: string, error: unknown): ProviderFailure {
  const reason = describeFailure(error);
  if (error instanceof ProviderOutputError) return { provider, kind: 'output', reason };
  const status = statusOf(error);
  if (status !== undefined && BUSY_STATUSES.has(status)) {
    const retryAfterMs = retryAfterOf(error);
    return { provider, kind: 'busy', reason, ...(retryAfterMs ? { retryAfterMs } : {}) };
  }
  if (status !== undefined && REFUSED_STATUSES.has(status)) return { provider, kind: 'refused', reason };
  return { provider, kind: 'unavailable', reason };
}

/** The reason a provider failed, short enough for a log line or a job's error. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = statusOf(error);
  const message = error.message.replace(/\s+/g, ' ').slice(0, 300);
  return status !== undefined ? `HTTP ${status}: ${message}` : `${error.name}: ${message}`;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** Retry-After in seconds from the error's response headers (a Headers object or a plain record). */
function retryAfterOf(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown }).headers;
  let value: string | null | undefined;
  if (headers instanceof Headers) value = headers.get('retry-after');
  else if (headers && typeof headers === 'object') value = (headers as Record<string, string>)['retry-after'];
  const seconds = Number(value);
  return value && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}
