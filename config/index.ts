import { z } from 'zod';
import { aiConfigOf, aiVariables, type AiConfig } from './ai.ts';
import { paymentIssues, paymentsConfigOf, paymentVariables, type PaymentsConfig } from './payments.ts';
import { providerIssues, providerVariables, standInUses, type ProviderUses } from './providers.ts';
import {
  serviceCredentialsConfigOf,
  serviceCredentialVariables,
  type ServiceCredentialsConfig,
} from './service-credentials.ts';

const port = z.coerce.number().int().min(0).max(65535);
export const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-0123456789';
/** Debian's `chromium-headless-shell`: the browser the audits drive unless CHROMIUM_PATH says otherwise. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(3000),
    BASE_URL: z.url().default('http://localhost:3000'),
    // Proxies (load balancers) in front of the API whose X-Forwarded-For entries are trusted; 0: none.
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/usability'),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    // The login of the API and worker (db/migrations/0016_roles.sql); default: DATABASE_URL as usability_service.
    DATABASE_SERVICE_URL: z.url().optional(),
    TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('usability'),
    TEMPORAL_UI_URL: z.url().default('http://127.0.0.1:8233'),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEVELOPMENT_JWT_SECRET),
    REDIS_URL: z.url().optional(),
    // Prometheus: the API serves GET /metrics on METRICS_HOST:METRICS_PORT, apart from the public
    // port; the worker's (its Temporal SDK metrics and its own) on METRICS_HOST:WORKER_METRICS_PORT.
    // Unset: no metrics endpoint.
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    METRICS_PORT: port.optional(),
    WORKER_METRICS_PORT: port.optional(),
    // OpenTelemetry traces (HTTP request -> workflow -> activities), sent by OTLP over HTTP (JSON)
    // to <endpoint>/v1/traces, the collector's standard variable. Unset: no traces.
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url().optional(),
    SMTP_URL: z.url().optional(),
    EMAIL_FROM: z.string().min(3).default('Usability service <no-reply@localhost>'),
    OUTBOX_DIR: z.string().min(1).default('.data/outbox'),
    // Where `npm run build:extension` leaves the recorder's package, which the start page offers.
    RECORDER_PACKAGE_DIR: z.string().min(1).default('dist'),
    CHROMIUM_PATH: z.string().min(1).default(HEADLESS_SHELL_PATH),
    AUDIT_TASK_QUEUE: z.string().min(1).default('usability-audits'),
    AUDIT_POOL_SIZE: z.coerce.number().int().min(1).max(16).default(2),
    // Audits of loopback/private addresses are refused unless this is on (tests, local development).
    AUDIT_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
    // Exact host:port pairs audits may reach although private (an intranet site; the tests' fixtures).
    AUDIT_ALLOWED_HOSTS: z.string().default(''),
    // The self-hosted facial analysis engine (clients/facial/README.md); unset: snapshots are stored unanalysed.
    FACIAL_ENGINE_URL: z.url().optional(),
    FACIAL_ENGINE_TOKEN: z.string().min(1).optional(),
    FACIAL_ENGINE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    // Where the project's own engine (facial-engine/) listens; `npm start` runs it when FACIAL_ENGINE_URL is unset.
    FACIAL_ENGINE_HOST: z.string().min(1).default('127.0.0.1'),
    FACIAL_ENGINE_PORT: port.default(3100),
    // Screen recordings (DOM replays) are erased this many days after their last chunk came in.
    RECORDING_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
    // A session's recording stops growing at this many megabytes (compressed).
    RECORDING_MAX_SESSION_MB: z.coerce.number().int().min(1).max(1024).default(100),
    // The messaging channel's bot (grammy); unset: messages are written to OUTBOX_DIR (local delivery).
    MESSAGING_BOT_TOKEN: z.string().min(1).optional(),
    // The bot API's origin without a trailing slash; unset: the SDK's default. Tests use a local server.
    MESSAGING_API_ROOT: z
      .url()
      .refine((url) => !url.endsWith('/'), 'must not end with /')
      .optional(),
    ...providerVariables,
    ...paymentVariables,
    ...aiVariables,
    ...serviceCredentialVariables,
    ...oauthProviderVariables(1),
    ...oauthProviderVariables(2),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEVELOPMENT_JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must be set in production' });
    }
    for (const { variable, message } of [...providerIssues(env), ...paymentIssues(env)]) {
      ctx.addIssue({ code: 'custom', path: [variable], message });
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

/** Every environment variable the configuration reads (README's table and docker-compose.yml list them all). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(environmentSchema.shape);

/** One OAuth identity provider; endpoints are configurable so tests run the flow against a local server. */
export interface OAuthProviderConfig {
  readonly id: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly userinfoUrl: string;
  readonly scope: string;
}

// Two provider slots: OAUTH_PROVIDER_<n>_ID names the provider in URLs; a slot without an id is off.
function oauthProviderVariables<N extends 1 | 2>(n: N) {
  const prefix = `OAUTH_PROVIDER_${n}` as const;
  return {
    [`${prefix}_ID`]: z
      .string()
      .regex(/^[a-z0-9_-]{1,50}$/)
      .optional(),
    [`${prefix}_CLIENT_ID`]: z.string().min(1).optional(),
    [`${prefix}_CLIENT_SECRET`]: z.string().min(1).optional(),
    [`${prefix}_AUTHORIZE_URL`]: z.url().optional(),
    [`${prefix}_TOKEN_URL`]: z.url().optional(),
    [`${prefix}_USERINFO_URL`]: z.url().optional(),
    [`${prefix}_SCOPE`]: z.string().default('openid email profile'),
  } as Record<
    `${typeof prefix}_${'ID' | 'CLIENT_ID' | 'CLIENT_SECRET' | 'AUTHORIZE_URL' | 'TOKEN_URL' | 'USERINFO_URL'}`,
    z.ZodOptional<z.ZodString>
  > &
    Record<`${typeof prefix}_SCOPE`, z.ZodDefault<z.ZodString>>;
}

function oauthProviders(env: Readonly<Record<string, unknown>>): OAuthProviderConfig[] {
  const providers: OAuthProviderConfig[] = [];
  for (const n of [1, 2]) {
    const read = (name: string) => env[`OAUTH_PROVIDER_${n}_${name}`] as string | undefined;
    const id = read('ID');
    if (!id) continue;
    const [clientId, clientSecret, authorizeUrl, tokenUrl, userinfoUrl] = [
      'CLIENT_ID',
      'CLIENT_SECRET',
      'AUTHORIZE_URL',
      'TOKEN_URL',
      'USERINFO_URL',
    ].map((name) => {
      const value = read(name);
      if (!value) throw new ConfigError(`Invalid environment variable OAUTH_PROVIDER_${n}_${name}: Required`);
      return value;
    }) as [string, string, string, string, string];
    providers.push({
      id,
      clientId,
      clientSecret,
      authorizeUrl,
      tokenUrl,
      userinfoUrl,
      scope: read('SCOPE') ?? '',
    });
  }
  return providers;
}

export interface Config {
  readonly env: Environment['NODE_ENV'];
  readonly http: {
    readonly host: string;
    readonly port: number;
    readonly baseUrl: string;
    /** How many proxies in front of the API to trust for the client address (X-Forwarded-For). */
    readonly trustProxy: number;
    /** The folder holding the recorder's package and its facts (lib/recorder-package.ts). */
    readonly recorderPackageDir: string;
  };
  readonly logLevel: Environment['LOG_LEVEL'];
  /** `url` migrates and seeds (the owner of the schema); `serviceUrl` is what the API and worker log in with. */
  readonly database: { readonly url: string; readonly serviceUrl: string; readonly poolSize: number };
  readonly temporal: {
    readonly address: string;
    readonly namespace: string;
    readonly taskQueue: string;
    readonly uiUrl: string;
  };
  readonly auth: { readonly jwtSecret: string; readonly oauthProviders: readonly OAuthProviderConfig[] };
  /** SMTP when `smtpUrl` is set (and EMAIL_PROVIDER is not `local`), otherwise `.eml` files in `outboxDir`. */
  readonly email: { readonly smtpUrl: string | undefined; readonly from: string; readonly outboxDir: string };
  readonly redisUrl: string | undefined;
  /** Where the API's and the worker's Prometheus endpoints listen; a port left undefined is off. */
  readonly metrics: {
    readonly host: string;
    readonly apiPort: number | undefined;
    readonly workerPort: number | undefined;
  };
  /** Where traces go (OTEL_EXPORTER_OTLP_ENDPOINT); undefined: none are made. */
  readonly tracing: { readonly otlpEndpoint: string | undefined };
  readonly audits: {
    readonly chromiumPath: string;
    readonly taskQueue: string;
    readonly poolSize: number;
    readonly allowPrivateUrls: boolean;
    readonly allowedHosts: readonly string[];
  };
  readonly facialEngine: {
    readonly url: string | undefined;
    readonly token: string | undefined;
    readonly timeoutMs: number;
    /** Where facial-engine/main.ts listens. */
    readonly listen: { readonly host: string; readonly port: number };
  };
  /** Screen recordings: how long they are kept, and how large one session's may grow (bytes, compressed). */
  readonly recordings: { readonly retentionDays: number; readonly maxSessionBytes: number };
  /** The bot API when `botToken` is set, otherwise JSON files in `outboxDir` (as for email). */
  readonly messaging: {
    readonly botToken: string | undefined;
    readonly apiRoot: string | undefined;
    readonly outboxDir: string;
  };
  /** Payments and incoming webhooks (config/payments.ts). */
  readonly payments: PaymentsConfig;
  /** The AI providers in failover order (config/ai.ts); without keys, the local analyst. */
  readonly ai: AiConfig;
  /** Secrets of the webhook-secret, cron and service-token endpoints (config/service-credentials.ts). */
  readonly serviceCredentials: ServiceCredentialsConfig;
  /** Which providers are real and which are local stand-ins (config/providers.ts), for health and banners. */
  readonly providers: ProviderUses;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Reads the environment once; throws a ConfigError naming every bad variable, one a line, so a
 * production start missing several providers is mended in one go.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues
        .map(
          (issue) =>
            `Invalid environment variable ${issue.path.join('.') || 'environment'}: ${issue.message}`,
        )
        .join('\n'),
    );
  }
  const env = parsed.data;
  const baseUrl = env.BASE_URL.replace(/\/$/, '');
  const uses = standInUses(env);
  const payments = paymentsConfigOf(env, baseUrl);
  return deepFreeze({
    env: env.NODE_ENV,
    http: {
      host: env.HOST,
      port: env.PORT,
      baseUrl,
      trustProxy: env.TRUST_PROXY,
      recorderPackageDir: env.RECORDER_PACKAGE_DIR,
    },
    logLevel: env.LOG_LEVEL,
    database: {
      url: env.DATABASE_URL,
      serviceUrl: env.DATABASE_SERVICE_URL ?? serviceLoginOf(env.DATABASE_URL),
      poolSize: env.DATABASE_POOL_SIZE,
    },
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      uiUrl: env.TEMPORAL_UI_URL,
    },
    auth: { jwtSecret: env.JWT_SECRET, oauthProviders: oauthProviders(env) },
    email: {
      smtpUrl: uses.email === 'real' ? env.SMTP_URL : undefined,
      from: env.EMAIL_FROM,
      outboxDir: env.OUTBOX_DIR,
    },
    redisUrl: env.REDIS_URL,
    metrics: { host: env.METRICS_HOST, apiPort: env.METRICS_PORT, workerPort: env.WORKER_METRICS_PORT },
    tracing: { otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT },
    audits: {
      chromiumPath: env.CHROMIUM_PATH,
      taskQueue: env.AUDIT_TASK_QUEUE,
      poolSize: env.AUDIT_POOL_SIZE,
      allowPrivateUrls: env.AUDIT_ALLOW_PRIVATE_URLS === 'true',
      allowedHosts: env.AUDIT_ALLOWED_HOSTS.split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    },
    facialEngine: {
      url: env.FACIAL_ENGINE_URL,
      token: env.FACIAL_ENGINE_TOKEN,
      timeoutMs: env.FACIAL_ENGINE_TIMEOUT_MS,
      listen: { host: env.FACIAL_ENGINE_HOST, port: env.FACIAL_ENGINE_PORT },
    },
    recordings: {
      retentionDays: env.RECORDING_RETENTION_DAYS,
      maxSessionBytes: env.RECORDING_MAX_SESSION_MB * 1024 * 1024,
    },
    messaging: {
      botToken: uses.messaging === 'real' ? env.MESSAGING_BOT_TOKEN : undefined,
      apiRoot: env.MESSAGING_API_ROOT,
      outboxDir: env.OUTBOX_DIR,
    },
    payments,
    ai: aiConfigOf(env, uses.ai === 'real'),
    serviceCredentials: serviceCredentialsConfigOf(env),
    providers: {
      ...uses,
      payments: payments.mode === 'stripe' ? 'real' : 'local',
      facialEngine: env.FACIAL_ENGINE_URL ? 'real' : 'off',
    },
  });
}

/** The login role of the running service (never the superuser); see db/migrations/0016_roles.sql. */
export const SERVICE_LOGIN_ROLE = 'usability_service';

/**
 * DATABASE_URL with the service login instead of its user and without its password: the owner's
 * password is not the service's. Servers that require passwords set DATABASE_SERVICE_URL instead.
 */
function serviceLoginOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.username = SERVICE_LOGIN_ROLE;
  url.password = '';
  return url.toString();
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child && typeof child === 'object') deepFreeze(child as object);
  }
  return Object.freeze(value);
}
