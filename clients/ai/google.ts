import { GoogleGenAI } from '@google/genai';
import { z } from 'zod';
import { MAX_OUTPUT_TOKENS, type AiProvider, type ProviderSettings } from './types.ts';

/**
 * Gemini's generateContent through `@google/genai` (the maintained SDK; its predecessor
 * `@google/generative-ai` is archived) with a JSON response schema (`responseJsonSchema`) made
 * from the answer's zod schema; this SDK has no zod helper of its own. Retries are off.
 */
export function googleProvider(settings: ProviderSettings): AiProvider {
  const client = new GoogleGenAI({
    apiKey: settings.apiKey,
    httpOptions: { baseUrl: settings.baseUrl, timeout: settings.timeoutMs, retryOptions: { attempts: 1 } },
  });
  return {
    name: 'google',
    async complete({ system, prompt, answer }) {
      const response = await client.models.generateContent({
        model: settings.model,
        contents: prompt,
        config: {
          systemInstruction: system,
          responseMimeType: 'application/json',
          responseJsonSchema: answerJsonSchema(answer.schema),
          maxOutputTokens: MAX_OUTPUT_TOKENS,
        },
      });
      return response.text ?? '';
    },
  };
}

/** The answer as the model must write it (defaults filled in: `io: output`), without the `$schema` tag. */
function answerJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _tag, ...json } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' });
  return json;
}
