import { loadConfig } from '../../config/index.ts';
import { dropDatabase, ensureDatabase, migrate } from '../../db/migrate.ts';
import {
  chromium,
  espeakNg,
  FULL_CHROMIUM_PATH,
  liberationFonts,
  temporalCli,
  temporalTestServer,
} from './tools.ts';

export interface SuiteEnvironment {
  /** Variables the suite runs with: its own database and the installed Temporal binaries. */
  readonly env: NodeJS.ProcessEnv;
  dispose(): Promise<void>;
}

/**
 * What `npm test` and `npm run bench` share: a freshly created and migrated database of their own
 * (named after the run, dropped afterwards) and the Temporal binaries, installed when missing.
 * The suites start their Temporal servers from those binaries on free ports.
 */
export async function prepareSuiteEnvironment(kind: 'test' | 'bench'): Promise<SuiteEnvironment> {
  const config = loadConfig();
  const url = new URL(config.database.url);
  url.pathname = `/usability_${kind}_${Date.now().toString(36)}_${process.pid}`;
  const databaseUrl = url.toString();
  const cli = temporalCli();
  const testServer = temporalTestServer();
  chromium(config.audits.chromiumPath);
  // The extension's tests load the recorder into the full browser, as testers run it.
  chromium(FULL_CHROMIUM_PATH);
  liberationFonts();
  espeakNg();
  await ensureDatabase(databaseUrl);
  try {
    await migrate(databaseUrl);
  } catch (error) {
    await dropDatabase(databaseUrl);
    throw error;
  }
  return {
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      DATABASE_URL: databaseUrl,
      TEMPORAL_CLI_PATH: cli,
      TEMPORAL_TEST_SERVER_PATH: testServer,
    },
    dispose: () => dropDatabase(databaseUrl),
  };
}
