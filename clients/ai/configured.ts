import type { AiConfig } from '../../config/ai.ts';
import { anthropicProvider } from './anthropic.ts';
import { googleProvider } from './google.ts';
import { openAiProvider } from './openai.ts';
import type { AiProvider, ProviderName, ProviderSettings } from './types.ts';

const FACTORY: Readonly<Record<ProviderName, (settings: ProviderSettings) => AiProvider>> = {
  openai: openAiProvider,
  anthropic: anthropicProvider,
  google: googleProvider,
};

/**
 * The providers in the configured order, each only when its key is set. An empty list means the
 * local analyst answers.
 */
export function configuredProviders(ai: AiConfig): AiProvider[] {
  return ai.order.flatMap((name) => {
    const { apiKey, baseUrl, model } = ai[name];
    return apiKey ? [FACTORY[name]({ apiKey, baseUrl, model, timeoutMs: ai.timeoutMs })] : [];
  });
}

/** What a caller polling an agent job is promised: seconds for the local analyst, longer for a model. */
export const estimateSeconds = (local: boolean): number => (local ? 2 : 20);

export function agentEstimateSeconds(ai: AiConfig): number {
  return estimateSeconds(configuredProviders(ai).length === 0);
}
