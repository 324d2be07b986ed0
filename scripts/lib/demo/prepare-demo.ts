import { hashPassword } from '../../../api/auth/password-hash.ts';
import type { Config } from '../../../config/index.ts';
import { connectDatabase } from '../../../db/connection.ts';
import { seedDatabase } from '../../../db/seed/seed.ts';
import { SEED_ADMIN, SEED_PASSWORD } from '../../../db/seed/seed-data.ts';
import { prepareDatabase } from '../database.ts';
import type { DemoSettings } from './run-demo.ts';

/** Why the demo cannot run against this configuration, for the person who started it. */
export class DemoRefused extends Error {
  override readonly name = 'DemoRefused';
}

/**
 * What `npm run demo` and `npm run screenshots` need before the first step: the service that
 * `npm start` runs answering at BASE_URL with the local providers, and the demo data set (its admin
 * reads the quiz's answers, so the demo's tester can pass it).
 */
export async function prepareDemo(
  config: Config,
  country: string,
): Promise<Omit<DemoSettings, 'byHand' | 'print'>> {
  const baseUrl = config.http.baseUrl;
  const health = await fetch(`${baseUrl}/api/health`).catch(() => undefined);
  if (!health) {
    throw new DemoRefused(
      `the service does not answer at ${baseUrl} (BASE_URL). Start it with \`npm start\` in another terminal, then try again.`,
    );
  }
  if (!health.ok)
    throw new DemoRefused(
      `the service at ${baseUrl} is not healthy (GET /api/health answered ${health.status}).`,
    );
  if (config.payments.mode !== 'local') {
    throw new DemoRefused(
      'the demo pays with the local payment provider: unset STRIPE_SECRET_KEY and PAYMENTS_PROVIDER.',
    );
  }
  if (config.email.smtpUrl) {
    throw new DemoRefused(
      `the demo reads the testers' and businesses' mail in ${config.email.outboxDir}: unset SMTP_URL.`,
    );
  }
  await prepareDatabase(config.database);
  const handle = connectDatabase(config.database.url, { poolSize: 2 });
  try {
    await seedDatabase(handle.db, await hashPassword(SEED_PASSWORD));
  } finally {
    await handle.close();
  }
  return {
    baseUrl,
    outboxDir: config.email.outboxDir,
    temporalUi: { url: config.temporal.uiUrl, namespace: config.temporal.namespace },
    admin: { email: SEED_ADMIN.email, password: SEED_PASSWORD },
    country,
  };
}
