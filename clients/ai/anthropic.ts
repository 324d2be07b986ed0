import Anthropic from '@anthropic-ai/sdk';
import { zodOutputFormat } from '@anthropic-ai/sdk/helpers/zod';
import { MAX_OUTPUT_TOKENS, type AiProvider, type ProviderSettings } from './types.ts';

/**
 * Anthropic's messages API with structured outputs (`output_config.format`): a JSON schema made
 * from the answer's zod schema by the SDK's own helper, which moves the constraints the API does
 * not take into descriptions. Retries are off.
 */
export function anthropicProvider(settings: ProviderSettings): AiProvider {
  const client = new Anthropic({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
  });
  return {
    name: 'anthropic',
    async complete({ system, prompt, answer }) {
      const { type, schema } = zodOutputFormat(answer.schema);
      const message = await client.messages.create({
        model: settings.model,
        max_tokens: MAX_OUTPUT_TOKENS,
        system,
        messages: [{ role: 'user', content: prompt }],
        output_config: { format: { type, schema } },
      });
      return message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    },
  };
}
