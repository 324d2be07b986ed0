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
  // Defaults chosen 2026-11-29 from each provider's own model pages (docs/decisions/ai-agents.md):
  // OpenAI's deprecations page names gpt-6-luna as the successor of gpt-4o-mini (shut down 2027-01-14),
  // https://developers.openai.com/api/docs/deprecations
  OPENAI_MODEL: z.string().min(1).default('gpt-6-luna'),
  ANTHROPIC_API_KEY: z.string().min(1).optional(),
  ANTHROPIC_BASE_URL: z.url().default('https://api.anthropic.com'),
  // Claude Haiku 4.5, the current fastest model, by its dated id: https://platform.claude.com/docs/en/models/overview
  ANTHROPIC_MODEL: z.string().min(1).default('claude-haiku-4-5-20251001'),
  GOOGLE_AI_API_KEY: z.string().min(1).optional(),
  GOOGLE_AI_BASE_URL: z.url().default('https://generativelanguage.googleapis.com'),
  // gemini-2.0-flash is shut down and gemini-2.5-flash shuts down on 2026-12-01; Google names
  // gemini-3.5-flash-lite as its replacement: https://ai.google.dev/gemini-api/docs/deprecations
  GOOGLE_AI_MODEL: z.string().min(1).default('gemini-3.5-flash-lite'),
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
