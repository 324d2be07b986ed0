import { z } from 'zod';

/**
 * Signs the local payment provider's events when no STRIPE_WEBHOOK_SECRET is set. It is in the
 * repository, so it is refused in production: there, events must carry the provider's signature.
 */
export const LOCAL_PAYMENTS_WEBHOOK_SECRET = 'whsec_local_development_only_0123456789abcdef';

/** The environment variables of payments and incoming webhooks, merged into config/index.ts's schema. */
export const paymentVariables = {
  // Which provider moves money; unset: `stripe` with a secret key, else `local` in development and
  // test; production without a key refuses to start unless this says `local`.
  PAYMENTS_PROVIDER: z.enum(['stripe', 'local']).optional(),
  // The payment provider's secret API key.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  // The signing secret of the provider's webhook endpoint for the platform's own events (checkout).
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  // The signing secret of the Connect endpoint: events on connected accounts (account.updated, payout.*).
  STRIPE_CONNECT_WEBHOOK_SECRET: z.string().min(1).optional(),
  // Another API origin than the provider's own (http://127.0.0.1:12111): tests, mocks, proxies.
  STRIPE_API_BASE: z
    .url()
    .refine((url) => /^https?:\/\/[^/]+\/?$/.test(url), 'must be an origin such as http://host:port')
    .optional(),
  STRIPE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(20_000),
  STRIPE_MAX_NETWORK_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  // Where the local provider posts its signed events; default: BASE_URL's webhook route.
  PAYMENTS_WEBHOOK_URL: z.url().optional(),
  // Shared secret of the scheduling provider's webhook (Scheduling-Webhook-Signature); unset: the route answers 503.
  SCHEDULING_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
};

type PaymentEnvironment = z.output<z.ZodObject<typeof paymentVariables>> & {
  NODE_ENV: 'development' | 'test' | 'production';
};

/**
 * `stripe`: the provider's API through its SDK. `local`: the service's own stand-in answers
 * checkouts and payouts and posts signed events to the webhook route (development and test, or
 * asked for by PAYMENTS_PROVIDER=local).
 */
export type PaymentsMode = 'stripe' | 'local';

export interface PaymentsConfig {
  readonly mode: PaymentsMode;
  readonly secretKey: string | undefined;
  /** Signs the local provider's events; the platform endpoint's secret. */
  readonly webhookSecret: string;
  /** Every secret Payment-Signature may be made with: the platform's and the Connect endpoint's. */
  readonly webhookSecrets: readonly string[];
  /** Host, port and protocol of the provider's API when STRIPE_API_BASE names another one. */
  readonly api:
    { readonly host: string; readonly port: number; readonly protocol: 'http' | 'https' } | undefined;
  readonly timeoutMs: number;
  readonly maxNetworkRetries: number;
  /** The webhook route the local provider posts to. */
  readonly localWebhookUrl: string;
  readonly schedulingWebhookSecret: string | undefined;
}

/**
 * Explicit choice first; otherwise a key means the provider, and only development and test run the
 * local one unasked (production without a key is refused by paymentIssues).
 */
export function paymentsModeOf(env: PaymentEnvironment): PaymentsMode {
  if (env.PAYMENTS_PROVIDER) return env.PAYMENTS_PROVIDER;
  if (env.STRIPE_SECRET_KEY) return 'stripe';
  return env.NODE_ENV === 'production' ? 'stripe' : 'local';
}

/** Combinations the schema alone cannot refuse, as (variable, message) pairs. */
export function paymentIssues(env: PaymentEnvironment): { variable: string; message: string }[] {
  const issues: { variable: string; message: string }[] = [];
  const mode = paymentsModeOf(env);
  const production = env.NODE_ENV === 'production';
  if (mode === 'stripe' && !env.STRIPE_SECRET_KEY) {
    issues.push({
      variable: 'STRIPE_SECRET_KEY',
      message: env.PAYMENTS_PROVIDER
        ? 'required when PAYMENTS_PROVIDER is stripe'
        : 'required in production; set PAYMENTS_PROVIDER=local for the local stand-in instead',
    });
    return issues;
  }
  if (mode === 'stripe' && !env.STRIPE_WEBHOOK_SECRET) {
    issues.push({ variable: 'STRIPE_WEBHOOK_SECRET', message: 'required when STRIPE_SECRET_KEY is set' });
  }
  // Account and payout events come from the Connect endpoint, signed with its own secret: without
  // it every payout would wait for a settlement that is refused with 401.
  if (mode === 'stripe' && production && !env.STRIPE_CONNECT_WEBHOOK_SECRET) {
    issues.push({
      variable: 'STRIPE_CONNECT_WEBHOOK_SECRET',
      message: 'required in production: account and payout events are signed by the Connect endpoint',
    });
  }
  if (mode === 'local' && production && !env.STRIPE_WEBHOOK_SECRET) {
    issues.push({
      variable: 'STRIPE_WEBHOOK_SECRET',
      message: 'PAYMENTS_PROVIDER=local in production needs a secret of its own to sign its events',
    });
  }
  for (const variable of ['STRIPE_WEBHOOK_SECRET', 'STRIPE_CONNECT_WEBHOOK_SECRET'] as const) {
    if (production && env[variable] === LOCAL_PAYMENTS_WEBHOOK_SECRET) {
      issues.push({ variable, message: 'the local development secret is refused in production' });
    }
  }
  return issues;
}

export function paymentsConfigOf(env: PaymentEnvironment, baseUrl: string): PaymentsConfig {
  const mode = paymentsModeOf(env);
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  // paymentIssues has refused the provider without a webhook secret of its own.
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET ?? LOCAL_PAYMENTS_WEBHOOK_SECRET;
  const connectSecret = env.STRIPE_CONNECT_WEBHOOK_SECRET;
  return {
    mode,
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret,
    webhookSecrets: [...new Set([webhookSecret, connectSecret].filter((s): s is string => Boolean(s)))],
    api: base
      ? {
          host: base.hostname.replace(/^\[|\]$/g, ''),
          port: Number(base.port || (protocol === 'http' ? 80 : 443)),
          protocol,
        }
      : undefined,
    timeoutMs: env.STRIPE_TIMEOUT_MS,
    maxNetworkRetries: env.STRIPE_MAX_NETWORK_RETRIES,
    localWebhookUrl: env.PAYMENTS_WEBHOOK_URL ?? `${baseUrl}/api/webhooks/payments`,
    schedulingWebhookSecret: env.SCHEDULING_WEBHOOK_SECRET,
  };
}
