import { AllProvidersUnavailableError, describeFailure } from './errors.ts';
import type { AiProvider, AiRequest } from '../../clients/ai/types.ts';

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
 * unreachable, times out, rate-limits, errors or answers with output that fails its schema is
 * skipped for the next. When none is left, AllProvidersUnavailableError names each failure.
 */
export async function askInOrder<T>(
  providers: readonly AiProvider[],
  request: AiRequest,
  accept: (text: string) => T,
  logger: AgentLogger,
  context: Record<string, unknown> = {},
): Promise<ProviderAnswer<T>> {
  const failures: string[] = [];
  for (const [index, provider] of providers.entries()) {
    try {
      const value = accept(await provider.complete(request));
      logger.info({ ...context, provider: provider.name, usedFallback: index > 0 }, 'AI provider answered');
      return { value, provider: provider.name, usedFallback: index > 0 };
    } catch (error) {
      const reason = describeFailure(error);
      failures.push(`${provider.name}: ${reason}`);
      logger.warn({ ...context, provider: provider.name, reason }, 'AI provider failed; trying the next');
    }
  }
  throw new AllProvidersUnavailableError(failures);
}
