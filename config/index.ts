import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const DEVELOPMENT_JWT_SECRET = 'development-only-secret-change-me-0123456789';

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    HOST: z.string().min(1).default('127.0.0.1'),
    PORT: port.default(3000),
    BASE_URL: z.url().default('http://localhost:3000'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    DATABASE_URL: z.url().default('postgres://postgres@127.0.0.1:5432/usability'),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
    TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('usability'),
    TEMPORAL_UI_URL: z.url().default('http://127.0.0.1:8233'),
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEVELOPMENT_JWT_SECRET),
    REDIS_URL: z.url().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEVELOPMENT_JWT_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['JWT_SECRET'], message: 'must be set in production' });
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

export interface Config {
  readonly env: Environment['NODE_ENV'];
  readonly http: { readonly host: string; readonly port: number; readonly baseUrl: string };
  readonly logLevel: Environment['LOG_LEVEL'];
  readonly database: { readonly url: string; readonly poolSize: number };
  readonly temporal: {
    readonly address: string;
    readonly namespace: string;
    readonly taskQueue: string;
    readonly uiUrl: string;
  };
  readonly auth: { readonly jwtSecret: string };
  readonly redisUrl: string | undefined;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the environment once; throws a ConfigError naming the first bad variable. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid environment variable ${variable}: ${issue?.message ?? 'invalid'}`);
  }
  const env = parsed.data;
  return deepFreeze({
    env: env.NODE_ENV,
    http: { host: env.HOST, port: env.PORT, baseUrl: env.BASE_URL.replace(/\/$/, '') },
    logLevel: env.LOG_LEVEL,
    database: { url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE },
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      uiUrl: env.TEMPORAL_UI_URL,
    },
    auth: { jwtSecret: env.JWT_SECRET },
    redisUrl: env.REDIS_URL,
  });
}

function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) {
    if (child && typeof child === 'object') deepFreeze(child as object);
  }
  return Object.freeze(value);
}
