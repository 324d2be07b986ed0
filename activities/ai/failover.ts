import { AllProvidersUnavailableError, classifyFailure, type ProviderFailure } from './errors.ts';
import type { AiProvider, AiRequest } from '../../clients/ai/types.ts';
import { workerMetrics } from '../worker-metrics.ts';

/** What agents log through: pino's shape, so the worker's logger fits. */
export interface AgentLogger {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

export const silentLogger: AgentLogger = { info() {}, warn() {} };

export interface ProviderAnswer<T> {
  readonly value: T;
  readonly provider: string;
  /** True when a provider other than the first in the configured order answered. */
  readonly usedFallback: boolean;
}

/**
 * Asks the providers in order until one answers with output that `accept` takes. A provider that is
 * unreachable, times out, rate-limits, refuses or answers with output that fails its schema is
 * skipped for the next (`onRefused` hears of each refusal, which needs an operator). When none is
 * left, AllProvidersUnavailableError carries each failure, classified.
 */
export async function askInOrder<T>(
  providers: readonly AiProvider[],
  request: AiRequest,
  accept: (text: string) => T,
  logger: AgentLogger,
  context: Record<string, unknown> = {},
  onRefused: (failure: ProviderFailure) => Promise<void> = async () => {},
): Promise<ProviderAnswer<T>> {
  const failures: ProviderFailure[] = [];
  const metrics = workerMetrics();
  for (const [index, provider] of providers.entries()) {
    try {
      const value = accept(await provider.complete(request));
      logger.info({ ...context, provider: provider.name, usedFallback: index > 0 }, 'AI provider answered');
      metrics.aiCall(provider.name, 'answered');
      if (index > 0) metrics.aiFailover(typeof context.agent === 'string' ? context.agent : 'unknown');
      return { value, provider: provider.name, usedFallback: index > 0 };
    } catch (error) {
      const failure = classifyFailure(provider.name, error);
      failures.push(failure);
      metrics.aiCall(provider.name, failure.kind);
      logger.warn(
        { ...context, provider: provider.name, kind: failure.kind, reason: failure.reason },
        'AI provider failed; trying the next',
      );
      if (failure.kind === 'refused') await onRefused(failure);
    }
  }
  throw new AllProvidersUnavailableError(failures);
}
