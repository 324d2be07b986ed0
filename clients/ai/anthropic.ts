import Anthropic from '@anthropic-ai/sdk';
import { MAX_OUTPUT_TOKENS, type AiProvider, type ProviderSettings } from './types.ts';

/** Anthropic's messages API; the JSON shape is asked for in the prompt. Retries are off. */
export function anthropicProvider(settings: ProviderSettings): AiProvider {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
  });
  return {
    name: 'anthropic',
    async complete({ system, prompt }) {
      const message = await client.messages.create({
        model: settings.model,
        max_tokens: MAX_OUTPUT_TOKENS,
        system,
        messages: [{ role: 'user', content: prompt }],
      });
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    },
  };
}
