import OpenAI from 'openai';
import { zodResponseFormat } from 'openai/helpers/zod';
import { MAX_OUTPUT_TOKENS, type AiProvider, type ProviderSettings } from './types.ts';

/**
 * OpenAI's chat completions with Structured Outputs: a strict JSON schema made from the answer's
 * zod schema by the SDK's own helper. Retries are off: failover is the next provider's job.
 */
export function openAiProvider(settings: ProviderSettings): AiProvider {
  const client = new OpenAI({
    apiKey: settings.apiKey,
    baseURL: settings.baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
  });
  return {
    name: 'openai',
    async complete({ system, prompt, answer }) {
      const completion = await client.chat.completions.create({
        model: settings.model,
        max_completion_tokens: MAX_OUTPUT_TOKENS,
        response_format: zodResponseFormat(answer.schema, answer.name),
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: prompt },
        ],
      });
      return completion.choices[0]?.message.content ?? '';
    },
  };
}
