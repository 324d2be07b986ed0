// `npm start`: the whole service on this machine. Temporal (the server at TEMPORAL_ADDRESS when one
// answers there, otherwise a dev server with its Web UI started on that loopback address), the
// database (created and migrated), the facial engine (unless FACIAL_ENGINE_URL names one), then API
// and worker.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { providerSummary } from '../config/providers.ts';
import { RECORDER_DOWNLOAD_PATH, RECORDER_PACKAGE_FILE } from '../lib/recorder-package.ts';
import { prepareDatabase } from './lib/database.ts';
import { BUILT_EXTENSION_DIR, buildExtension, serviceOriginOf } from './lib/extension-build.ts';
import { loadDotEnv } from './lib/dot-env.ts';
import { Lifecycle } from './lib/lifecycle.ts';
import { stopProcess } from './lib/processes.ts';
import { startDevServer, temporalReachable } from './lib/temporal-dev-server.ts';
import { planTemporal } from './lib/temporal-plan.ts';
import { chromium, liberationFonts, PROJECT_ROOT, temporalCli } from './lib/tools.ts';
import { reachableUrl } from './lib/urls.ts';

// `.env` as docker compose reads it (`.env.example`); the shell's environment wins. Read before
// the configuration, and inherited by the API and the worker.
const fromDotEnv = loadDotEnv(join(PROJECT_ROOT, '.env'));
if (fromDotEnv.length) console.log(`[start] .env: ${fromDotEnv.join(', ')}`);
const config = loadConfig();
/** The API closes its connections within 10 s (api/app.ts); the worker finishes its tasks. */
const CHILD_STOP_GRACE_MS = 15_000;
// Signal handlers first: whatever starts from here on is stopped by Ctrl-C or by a failed step.
const lifecycle = new Lifecycle();

interface ProvidedTemporal {
  readonly address: string;
  readonly uiUrl: string | undefined;
  readonly origin: string;
}

async function provideTemporal(): Promise<ProvidedTemporal> {
  // Only this script asks whether a variable was given at all: the printed lines depend on it.
  const addressGiven = process.env.TEMPORAL_ADDRESS !== undefined;
  const settings = {
    address: config.temporal.address,
    uiUrl: config.temporal.uiUrl,
    uiUrlGiven: process.env.TEMPORAL_UI_URL !== undefined,
  };
  const plan = planTemporal(settings, await temporalReachable(settings.address));
  if (plan.kind === 'use') {
    const origin = addressGiven
      ? 'already running (TEMPORAL_ADDRESS), not started here'
      : 'already running at the default address, not started here (set TEMPORAL_ADDRESS to choose)';
    return { address: plan.address, uiUrl: plan.uiUrl, origin };
  }
  console.log(`[start] starting the Temporal dev server on ${plan.ip}:${plan.port}...`);
  const server = await startDevServer({
    cli: temporalCli(),
    ip: plan.ip,
    port: plan.port,
    uiPort: plan.uiPort,
    dbFile: join(PROJECT_ROOT, '.data', 'temporal', 'dev.sqlite'),
    logFile: join(PROJECT_ROOT, '.data', 'logs', 'temporal.log'),
    // Registered at spawn: Ctrl-C while it boots (or a failed migration after it) stops it too.
    onSpawn: (stop) => lifecycle.started('the Temporal dev server', stop),
  });
  return { address: server.address, uiUrl: server.uiUrl, origin: 'dev server started here' };
}

async function waitForHealth(name: string, url: string, running: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && running()) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${name} did not become healthy at ${url}`);
}

const spawnService = (entry: string, env: NodeJS.ProcessEnv) =>
  spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, entry)], {
    cwd: PROJECT_ROOT,
    env,
    stdio: 'inherit',
  });

/** The project's own facial engine (facial-engine/), once its model is loaded; its URL. */
async function startFacialEngine(): Promise<string> {
  const { host, port } = config.facialEngine.listen;
  console.log(`[start] starting the facial engine on ${host}:${port}...`);
  const engine = spawnService('facial-engine/main.ts', process.env);
  lifecycle.started('the facial engine', async () => {
    await stopProcess(engine, CHILD_STOP_GRACE_MS);
  });
  engine.once('exit', (code) => {
    if (lifecycle.isStopping) return;
    console.error(`[start] the facial engine exited (code ${code}); stopping the rest`);
    void lifecycle.stopAll(code ?? 1);
  });
  const url = reachableUrl(host, port);
  await waitForHealth(
    'the facial engine',
    `${url}/health`,
    () => engine.exitCode === null && engine.signalCode === null,
  );
  return url;
}

/**
 * The recorder's package for this service's BASE_URL, which the session start page offers (a few
 * seconds). A failed build leaves the page's other way to install it, and the service starts anyway.
 */
async function buildRecorderPackage(): Promise<void> {
  const zip = join(config.http.recorderPackageDir, RECORDER_PACKAGE_FILE);
  try {
    await buildExtension(BUILT_EXTENSION_DIR, zip, serviceOriginOf(config.http.baseUrl));
    console.log(`[start] the session recorder built for ${serviceOriginOf(config.http.baseUrl)}: ${zip}`);
  } catch (error) {
    console.error(`[start] the session recorder was not built: ${(error as Error).message}`);
  }
}

/** Temporal, the database, then API and worker; each registers how it stops as soon as it runs. */
async function startEverything(): Promise<{
  temporal: ProvidedTemporal;
  apiUrl: string;
  facialEngine: string;
}> {
  chromium(config.audits.chromiumPath);
  liberationFonts();
  const temporal = await provideTemporal();
  console.log(`[start] Temporal: ${temporal.address}, ${temporal.origin}`);
  const { created, applied } = await prepareDatabase(config.database);
  console.log(`[start] database ${created ? 'created' : 'ready'}; ${applied.length} migration(s) applied`);

  await buildRecorderPackage();
  const facialEngine = config.facialEngine.url ?? (await startFacialEngine());
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: temporal.address,
    ...(temporal.uiUrl ? { TEMPORAL_UI_URL: temporal.uiUrl } : {}),
    FACIAL_ENGINE_URL: facialEngine,
  };
  const children = ['api/main.ts', 'workers/main.ts'].map((entry) => spawnService(entry, env));
  lifecycle.started('the API and the worker', async () => {
    const ended = await Promise.all(children.map((child) => stopProcess(child, CHILD_STOP_GRACE_MS)));
    if (ended.includes('killed'))
      console.error(`[start] killed what had not stopped within ${CHILD_STOP_GRACE_MS / 1000} s`);
  });
  for (const child of children) {
    child.once('exit', (code) => {
      if (lifecycle.isStopping) return;
      console.error(`[start] a service process exited (code ${code}); stopping the rest`);
      void lifecycle.stopAll(code ?? 1);
    });
  }

  const apiUrl = reachableUrl(config.http.host, config.http.port);
  const api = children[0]!;
  await waitForHealth(
    'the API',
    `${apiUrl}/api/health`,
    () => api.exitCode === null && api.signalCode === null,
  );
  return { temporal, apiUrl, facialEngine };
}

const { temporal, apiUrl, facialEngine } = await startEverything().catch((error: unknown) => {
  console.error(`[start] ${(error as Error).message}`);
  return lifecycle.stopAll(1);
});
const providers = providerSummary(config);
console.log(`
  API              ${apiUrl}
  Health           ${apiUrl}/api/health
  API docs         ${apiUrl}/api/docs
  Sign in          ${config.http.baseUrl}/login (BASE_URL: the address links and the extension use)
  Recorder         ${config.http.baseUrl}${RECORDER_DOWNLOAD_PATH} (the start page links it)
  Temporal         ${temporal.address} (${temporal.origin})
  Temporal Web UI  ${temporal.uiUrl ?? 'not known: set TEMPORAL_UI_URL to the Web UI of that server'}
  Facial engine    ${facialEngine}${config.facialEngine.url ? ' (FACIAL_ENGINE_URL, not started here)' : ' (started here)'}
  Email            ${providers.email}
  Messaging        ${providers.messaging}
  AI               ${providers.ai}
  Payments         ${providers.payments}

  Ctrl-C stops everything started here.
`);
