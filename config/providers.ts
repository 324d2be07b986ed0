import { z } from 'zod';
import type { AiProviderName } from './ai.ts';

/**
 * Whether each provider is the real one or its local stand-in (DESIGN.md, "External providers").
 * Development and test fall back to the stand-ins silently; production refuses to start without a
 * provider unless its variable below asks for the stand-in by name (docs/decisions/operations.md).
 */
export const providerVariables = {
  // `local`: mail as .eml files in OUTBOX_DIR; `smtp`: SMTP_URL. Unset: smtp when SMTP_URL is set,
  // else local outside production.
  EMAIL_PROVIDER: z.enum(['smtp', 'local']).optional(),
  // `local`: chat messages as JSON files in OUTBOX_DIR; `bot-api`: MESSAGING_BOT_TOKEN.
  MESSAGING_PROVIDER: z.enum(['bot-api', 'local']).optional(),
  // `local`: the local analyst answers every agent; `models`: the providers whose keys are set.
  AI_PROVIDER: z.enum(['models', 'local']).optional(),
};

/** `real`: the provider itself; `local`: its stand-in; `off`: nothing (the facial engine only). */
export type ProviderUse = 'real' | 'local' | 'off';

export interface ProviderUses {
  readonly email: ProviderUse;
  readonly messaging: ProviderUse;
  readonly ai: ProviderUse;
  readonly payments: ProviderUse;
  readonly facialEngine: ProviderUse;
}

interface ProviderEnvironment {
  readonly NODE_ENV: 'development' | 'test' | 'production';
  readonly EMAIL_PROVIDER?: 'smtp' | 'local' | undefined;
  readonly MESSAGING_PROVIDER?: 'bot-api' | 'local' | undefined;
  readonly AI_PROVIDER?: 'models' | 'local' | undefined;
  readonly SMTP_URL?: string | undefined;
  readonly MESSAGING_BOT_TOKEN?: string | undefined;
  readonly AI_PROVIDER_ORDER: readonly AiProviderName[];
  readonly OPENAI_API_KEY?: string | undefined;
  readonly ANTHROPIC_API_KEY?: string | undefined;
  readonly GOOGLE_AI_API_KEY?: string | undefined;
}

const AI_KEY: Readonly<Record<AiProviderName, 'OPENAI_API_KEY' | 'ANTHROPIC_API_KEY' | 'GOOGLE_AI_API_KEY'>> =
  {
    openai: 'OPENAI_API_KEY',
    anthropic: 'ANTHROPIC_API_KEY',
    google: 'GOOGLE_AI_API_KEY',
  };

/** One provider's choice: its own variable first, then whether its credential is set. */
interface Choice {
  readonly asked: 'real' | 'local' | undefined;
  readonly configured: boolean;
}

const choices = (env: ProviderEnvironment): Record<'email' | 'messaging' | 'ai', Choice> => ({
  email: { asked: asked(env.EMAIL_PROVIDER), configured: Boolean(env.SMTP_URL) },
  messaging: { asked: asked(env.MESSAGING_PROVIDER), configured: Boolean(env.MESSAGING_BOT_TOKEN) },
  ai: {
    asked: asked(env.AI_PROVIDER),
    configured: env.AI_PROVIDER_ORDER.some((name) => Boolean(env[AI_KEY[name]])),
  },
});

function asked(value: string | undefined): 'real' | 'local' | undefined {
  if (value === undefined) return undefined;
  return value === 'local' ? 'local' : 'real';
}

const useOf = ({ asked: choice, configured }: Choice): 'real' | 'local' =>
  choice ?? (configured ? 'real' : 'local');

/** Email, messaging and AI: real or local (payments and the facial engine have their own settings). */
export function standInUses(
  env: ProviderEnvironment,
): Record<'email' | 'messaging' | 'ai', 'real' | 'local'> {
  const all = choices(env);
  return { email: useOf(all.email), messaging: useOf(all.messaging), ai: useOf(all.ai) };
}

/** What each provider's variable and credential say that the schema alone cannot refuse. */
export function providerIssues(env: ProviderEnvironment): { variable: string; message: string }[] {
  const all = choices(env);
  const aiKeys = env.AI_PROVIDER_ORDER.map((name) => AI_KEY[name]);
  const credential = {
    email: {
      variable: 'SMTP_URL',
      setting: 'EMAIL_PROVIDER',
      real: 'smtp',
      standIn: 'to write mail to OUTBOX_DIR',
    },
    messaging: {
      variable: 'MESSAGING_BOT_TOKEN',
      setting: 'MESSAGING_PROVIDER',
      real: 'bot-api',
      standIn: 'to write chat messages to OUTBOX_DIR',
    },
    ai: {
      variable: aiKeys.join(' or '),
      setting: 'AI_PROVIDER',
      real: 'models',
      standIn: 'for the local analyst',
    },
  } as const;
  const issues: { variable: string; message: string }[] = [];
  for (const area of ['email', 'messaging', 'ai'] as const) {
    const { asked: choice, configured } = all[area];
    if (configured) continue;
    const { variable, setting, real, standIn } = credential[area];
    if (choice === 'real') issues.push({ variable, message: `required when ${setting} is ${real}` });
    if (choice === undefined && env.NODE_ENV === 'production') {
      issues.push({ variable, message: `required in production; set ${setting}=local ${standIn} instead` });
    }
  }
  return issues;
}

interface ProviderSettings {
  readonly providers: ProviderUses;
  readonly email: { readonly outboxDir: string };
  readonly messaging: { readonly outboxDir: string };
  readonly ai: { readonly order: readonly AiProviderName[] } & Record<
    AiProviderName,
    { readonly apiKey: string | undefined; readonly model: string }
  >;
  readonly facialEngine: { readonly url: string | undefined };
}

/** One line per provider for the start banners: what it is and where its work goes. */
export function providerSummary(settings: ProviderSettings): Record<keyof ProviderUses, string> {
  const { providers, email, messaging, ai, facialEngine } = settings;
  const models = ai.order.filter((name) => ai[name].apiKey).map((name) => `${name} (${ai[name].model})`);
  return {
    email: providers.email === 'real' ? 'real: SMTP (SMTP_URL)' : `local: .eml files in ${email.outboxDir}`,
    messaging:
      providers.messaging === 'real' ? 'real: the bot API' : `local: JSON files in ${messaging.outboxDir}`,
    ai: providers.ai === 'real' ? `real: ${models.join(', then ')}` : 'local: the local analyst',
    payments:
      providers.payments === 'real'
        ? 'real: the payment provider (STRIPE_SECRET_KEY)'
        : 'local: the stand-in checkout, signed with STRIPE_WEBHOOK_SECRET or the development secret',
    facialEngine:
      providers.facialEngine === 'real'
        ? `real: ${facialEngine.url}`
        : 'off: snapshots are stored unanalysed',
  };
}
