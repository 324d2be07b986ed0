import { z } from 'zod';

export type AiProviderName = 'openai' | 'anthropic' | 'google';
export const AI_PROVIDER_NAMES: readonly AiProviderName[] = ['openai', 'anthropic', 'google'];

/** The environment variables of the AI providers, merged into config/index.ts's schema. */
export const aiVariables = {
  // Failover order; a provider without its API key is skipped; none configured: the local analyst.
  AI_PROVIDER_ORDER: z
    .string()
    .default('openai,anthropic,google')
    .transform((value) => value.split(',').map((name) => name.trim().toLowerCase()))
    .refine(
      (names) => names.every((name) => (AI_PROVIDER_NAMES as readonly string[]).includes(name)),
      'must list openai, anthropic and google (comma-separated)',
    )
    .refine((names) => new Set(names).size === names.length, 'must not name a provider twice')
    .transform((names) => names as AiProviderName[]),
  // Per request: a provider slower than this is skipped for the next one.
  AI_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  OPENAI_API_KEY: z.string().min(1).optional(),
  OPENAI_BASE_URL: z.url().default('https://api.openai.com/v1'),
  OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com'),
  ANTHROPIC_MODEL: z.string().min(1).default('claude-3-5-haiku-latest'),
  GOOGLE_AI_API_KEY: z.string().min(1).optional(),
  GOOGLE_AI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com'),
  GOOGLE_AI_MODEL: z.string().min(1).default('gemini-2.0-flash'),
};

type AiEnvironment = z.output<z.ZodObject<typeof aiVariables>>;

export interface AiProviderConfig {
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly model: string;
}

export interface AiConfig {
  readonly order: readonly AiProviderName[];
  readonly timeoutMs: number;
  readonly openai: AiProviderConfig;
  readonly anthropic: AiProviderConfig;
  readonly google: AiProviderConfig;
}

/** `useModels` false (AI_PROVIDER=local): no key is passed on, so the local analyst answers. */
export function aiConfigOf(env: AiEnvironment, useModels: boolean): AiConfig {
  const trim = (url: string) => url.replace(/\/$/, '');
  const key = (value: string | undefined) => (useModels ? value : undefined);
  return {
    order: env.AI_PROVIDER_ORDER,
    timeoutMs: env.AI_TIMEOUT_MS,
    openai: { apiKey: key(env.OPENAI_API_KEY), baseUrl: trim(env.OPENAI_BASE_URL), model: env.OPENAI_MODEL },
    anthropic: {
      apiKey: key(env.ANTHROPIC_API_KEY),
      baseUrl: trim(env.ANTHROPIC_BASE_URL),
      model: env.ANTHROPIC_MODEL,
    },
    google: {
      apiKey: key(env.GOOGLE_AI_API_KEY),
      baseUrl: trim(env.GOOGLE_AI_BASE_URL),
      model: env.GOOGLE_AI_MODEL,
    },
  };
}
