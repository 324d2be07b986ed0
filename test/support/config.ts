import { loadConfig, type Config } from '../../config/index.ts';

/** The configuration tests run the service with: the run's database, a test origin, no Redis. */
export function testConfig(overrides: NodeJS.ProcessEnv = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.DATABASE_URL,
    BASE_URL: 'https://usability.example',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...overrides,
  });
}

/** Production with every provider's local stand-in asked for by name (config/providers.ts). */
export const PRODUCTION_WITH_STAND_INS: NodeJS.ProcessEnv = {
  NODE_ENV: 'production',
  EMAIL_PROVIDER: 'local',
  MESSAGING_PROVIDER: 'local',
  AI_PROVIDER: 'local',
  PAYMENTS_PROVIDER: 'local',
  STRIPE_WEBHOOK_SECRET: 'whsec_own_local_signing_secret_0123',
};
