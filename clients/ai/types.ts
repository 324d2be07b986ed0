import type { ZodType } from 'zod';
import { AI_PROVIDER_NAMES, type AiProviderName } from '../../config/ai.ts';

/** The three AI providers, by the name records and logs use (the configuration's names). */
export type ProviderName = AiProviderName;
export const PROVIDER_NAMES = AI_PROVIDER_NAMES;

/** The deterministic analyst that answers when no provider is configured (DESIGN.md, local defaults). */
export const LOCAL_ANALYST = 'local-analyst';

/** One request to a model: instructions, the material, and the shape its answer must take. */
export interface AiRequest {
  readonly system: string;
  readonly prompt: string;
  /**
   * The answer's schema, which each provider turns into its API's structured-output request with
   * its SDK's own helper where there is one; `name` is what OpenAI calls it (letters, digits, _ -).
   */
  readonly answer: { readonly name: string; readonly schema: ZodType };
}

/** A provider behind its real SDK: sends one request and answers the model's text (JSON in the answer's shape). */
export interface AiProvider {
  readonly name: ProviderName;
  complete(request: AiRequest): Promise<string>;
}

export interface ProviderSettings {
  readonly apiKey: string;
  readonly baseUrl: string;
  readonly model: string;
  /** Per request; a provider that takes longer is skipped for the next one. */
  readonly timeoutMs: number;
}

/** Output tokens a model may spend on one answer. */
export const MAX_OUTPUT_TOKENS = 4096;
