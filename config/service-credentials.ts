import { z } from 'zod';

// The shared secrets of the spec's other header methods (api/auth/service-credentials.ts). Each
// endpoint that takes one is off (503) while its variable is unset.

const token = /^\S{16,}$/;
const TOKEN_RULE = 'must be at least 16 characters without spaces';

/** The environment variables of the service credentials, merged into config/index.ts's schema. */
export const serviceCredentialVariables = {
  // `x-webhook-secret` of POST /api/webhooks/messaging; also what the bot API is given as its
  // webhook's secret_token, hence the bot API's alphabet.
  MESSAGING_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,256}$/, 'must be 16-256 characters of A-Z, a-z, 0-9, _ and -')
    .optional(),
  // `Authorization: Bearer <CRON_SECRET>` of POST /api/cron/:job.
  CRON_SECRET: z.string().regex(token, TOKEN_RULE).optional(),
  // `Authorization: Token <one of them>` of /api/internal/*; comma-separated, so one can be rotated.
  SERVICE_TOKENS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((entry) => entry.trim()))
    .transform((entries) => (entries.length === 1 && entries[0] === '' ? [] : entries))
    .refine((entries) => entries.every((entry) => token.test(entry)), `each token ${TOKEN_RULE}`),
};

type ServiceCredentialEnvironment = z.output<z.ZodObject<typeof serviceCredentialVariables>>;

export interface ServiceCredentialsConfig {
  readonly messagingWebhookSecret: string | undefined;
  readonly cronSecret: string | undefined;
  readonly serviceTokens: readonly string[];
}

export function serviceCredentialsConfigOf(env: ServiceCredentialEnvironment): ServiceCredentialsConfig {
  return {
    messagingWebhookSecret: env.MESSAGING_WEBHOOK_SECRET,
    cronSecret: env.CRON_SECRET,
    serviceTokens: env.SERVICE_TOKENS,
  };
}
