// `npm start`: the whole service on this machine. Temporal (dev server with Web UI, unless
// TEMPORAL_ADDRESS names a running one), the database (created and migrated), then API and worker.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../config/index.ts';
import { ensureDatabase, migrate } from '../db/migrate.ts';
import { startDevServer, temporalReachable, type DevServer } from './lib/temporal-dev-server.ts';
import { chromium, PROJECT_ROOT, temporalCli } from './lib/tools.ts';

const config = loadConfig();
const DEFAULT_TEMPORAL_PORT = 7233;
const DEFAULT_TEMPORAL_UI_PORT = 8233;

async function provideTemporal(): Promise<{ address: string; uiUrl: string; server?: DevServer }> {
  // Only this script asks whether the variable was given at all: a given address must already answer.
  if (process.env.TEMPORAL_ADDRESS) {
    if (!(await temporalReachable(config.temporal.address))) {
      throw new Error(`TEMPORAL_ADDRESS=${config.temporal.address} does not answer`);
    }
    return { address: config.temporal.address, uiUrl: config.temporal.uiUrl };
  }
  const address = `127.0.0.1:${DEFAULT_TEMPORAL_PORT}`;
  if (await temporalReachable(address)) {
    console.log(`[start] a Temporal server already answers at ${address}; using it`);
    return { address, uiUrl: `http://127.0.0.1:${DEFAULT_TEMPORAL_UI_PORT}` };
  }
  console.log('[start] starting the Temporal dev server...');
  const server = await startDevServer({
    cli: temporalCli(),
    port: DEFAULT_TEMPORAL_PORT,
    uiPort: DEFAULT_TEMPORAL_UI_PORT,
    dbFile: join(PROJECT_ROOT, '.data', 'temporal', 'dev.sqlite'),
    logFile: join(PROJECT_ROOT, '.data', 'logs', 'temporal.log'),
  });
  return { address: server.address, uiUrl: server.uiUrl, server };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`API did not become healthy at ${url}`);
}

chromium(config.audits.chromiumPath);
const temporal = await provideTemporal();
const created = await ensureDatabase(config.database.url);
const { applied } = await migrate(config.database.url);
console.log(`[start] database ${created ? 'created' : 'ready'}; ${applied.length} migration(s) applied`);

const env = { ...process.env, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_UI_URL: temporal.uiUrl };
const children = ['api/main.ts', 'workers/main.ts'].map((entry) =>
  spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, entry)], {
    cwd: PROJECT_ROOT,
    env,
    stdio: 'inherit',
  }),
);

let stopping = false;
async function stopAll(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    console.log('[start] stopping...');
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await temporal.server?.stop();
  }
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll(0));
for (const child of children) {
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`[start] a service process exited (code ${code}); stopping the rest`);
      void stopAll(code ?? 1);
    }
  });
}

const apiUrl = `http://${config.http.host}:${config.http.port}`;
try {
  await waitForHealth(`${apiUrl}/api/health`, children[0]!);
} catch (error) {
  console.error(`[start] ${(error as Error).message}`);
  await stopAll(1);
}
console.log(`
  API              ${apiUrl}
  Health           ${apiUrl}/api/health
  API docs         ${apiUrl}/api/docs
  Temporal Web UI  ${temporal.uiUrl}

  Ctrl-C stops everything started here.
`);
