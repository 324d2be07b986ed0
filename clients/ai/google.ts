import { GoogleGenerativeAI } from '@google/generative-ai';
import { MAX_OUTPUT_TOKENS, type AiProvider, type ProviderSettings } from './types.ts';

/** Gemini's generateContent with a JSON response type; base URL and timeout per request options. */
export function googleProvider(settings: ProviderSettings): AiProvider {
  const client = new GoogleGenerativeAI(settings.apiKey);
  return {
    name: 'google',
    async complete({ system, prompt }) {
      const model = client.getGenerativeModel(
        {
          model: settings.model,
          systemInstruction: system,
          generationConfig: { responseMimeType: 'application/json', maxOutputTokens: MAX_OUTPUT_TOKENS },
        },
        { baseUrl: settings.baseUrl, timeout: settings.timeoutMs },
      );
      const result = await model.generateContent(prompt);
      return result.response.text();
    },
  };
}
