import { z } from 'zod';

/**
 * Signs the local payment provider's events when no STRIPE_WEBHOOK_SECRET is set. It is in the
 * repository, so it is refused in production: there, events must carry the provider's signature.
 */
export const LOCAL_PAYMENTS_WEBHOOK_SECRET = 'whsec_local_development_only_0123456789abcdef';

/** The environment variables of payments and incoming webhooks, merged into config/index.ts's schema. */
export const paymentVariables = {
  // The payment provider's secret API key; unset: the local provider (outside production).
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  // The signing secret of the provider's webhook endpoint (Payment-Signature).
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
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

type PaymentEnvironment = z.output<z.ZodObject<typeof paymentVariables>>;

/**
 * `stripe`: the provider's API through its SDK. `local`: no credentials outside production; the
 * service's own stand-in answers checkouts and payouts and posts signed events to the webhook
 * route. `disabled`: production without credentials; billing answers 503.
 */
export type PaymentsMode = 'stripe' | 'local' | 'disabled';

export interface PaymentsConfig {
  readonly mode: PaymentsMode;
  readonly secretKey: string | undefined;
  /** Verifies Payment-Signature; undefined only when payments are disabled. */
  readonly webhookSecret: string | undefined;
  /** Host, port and protocol of the provider's API when STRIPE_API_BASE names another one. */
  readonly api:
    { readonly host: string; readonly port: number; readonly protocol: 'http' | 'https' } | undefined;
  readonly timeoutMs: number;
  readonly maxNetworkRetries: number;
  /** The webhook route the local provider posts to. */
  readonly localWebhookUrl: string;
  readonly schedulingWebhookSecret: string | undefined;
}

/** Combinations the schema alone cannot refuse, as (variable, message) pairs. */
export function paymentIssues(
  env: PaymentEnvironment & { NODE_ENV: string },
): { variable: string; message: string }[] {
  const issues: { variable: string; message: string }[] = [];
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
    issues.push({ variable: 'STRIPE_WEBHOOK_SECRET', message: 'required when STRIPE_SECRET_KEY is set' });
  }
  if (env.NODE_ENV === 'production' && env.STRIPE_WEBHOOK_SECRET === LOCAL_PAYMENTS_WEBHOOK_SECRET) {
    issues.push({
      variable: 'STRIPE_WEBHOOK_SECRET',
      message: 'the local development secret is refused in production',
    });
  }
  return issues;
}

export function paymentsConfigOf(
  env: PaymentEnvironment & { NODE_ENV: string },
  baseUrl: string,
): PaymentsConfig {
  const mode: PaymentsMode = env.STRIPE_SECRET_KEY
    ? 'stripe'
    : env.NODE_ENV === 'production'
      ? 'disabled'
      : 'local';
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : undefined;
  const protocol = base?.protocol === 'http:' ? 'http' : 'https';
  return {
    mode,
    secretKey: env.STRIPE_SECRET_KEY,
    webhookSecret:
      env.STRIPE_WEBHOOK_SECRET ?? (mode === 'local' ? LOCAL_PAYMENTS_WEBHOOK_SECRET : undefined),
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
