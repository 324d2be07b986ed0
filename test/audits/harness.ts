import { startTestApi, type TestApi } from '../support/api.ts';
import { testConfig } from '../support/config.ts';
import { serviceDatabase } from '../support/database.ts';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.ts';
import { TEST_TASK_QUEUE, temporalEnvironment, workflowBundle } from '../support/temporal.ts';
import { createAuditWorker } from '../../workers/audit-worker.ts';
import { startFixtureServer, type FixtureServer } from './fixture-server.ts';
import { keptForRun } from '../support/run-resources.ts';

/** The audit task queue of this run; the shared service worker does not poll it. */
export const AUDIT_TEST_QUEUE = `usability-audits-test-${process.pid}`;

export interface AuditHarness {
  readonly fixtures: FixtureServer;
  readonly mail: MailCatcher;
  /**
   * The API and the audit worker with the SSRF guard on: private addresses are refused, except the
   * fixture server's own host:port and its cross-origin name (AUDIT_ALLOWED_HOSTS), so every audit
   * test also runs the guard.
   */
  readonly api: TestApi;
}

/** Slots of the harness's audit worker: full-audit pages and, separately, instant audits. */
export const HARNESS_SLOTS = { full: 2, instant: 2 } as const;

interface SharedHarness {
  readonly harness: Promise<AuditHarness>;
  users: number;
  readonly kept: boolean;
  readonly stop: () => Promise<void>;
}

let shared: SharedHarness | undefined;

/**
 * One fixture server, SMTP catcher and audit worker (so one browser) for every audit suite of the
 * run. Each suite acquires it in `before` and releases it in `after`; the last one stops it, unless
 * the run keeps it for the files after (test/support/run-resources.ts).
 */
export function acquireAuditHarness(): Promise<AuditHarness> {
  if (shared) {
    // A kept harness taken up by the next file: the mail of the files before is not its mail.
    if (shared.users++ === 0)
      return shared.harness.then((harness) => {
        harness.mail.messages.splice(0);
        return harness;
      });
    return shared.harness;
  }
  const parts: { stops: (() => Promise<void>)[] } = { stops: [] };
  const harness = (async () => {
    const fixtures = await startFixtureServer();
    parts.stops.push(() => fixtures.stop());
    const mail = await startMailCatcher();
    parts.stops.push(() => mail.stop());
    const env = {
      AUDIT_TASK_QUEUE: AUDIT_TEST_QUEUE,
      AUDIT_ALLOW_PRIVATE_URLS: 'false',
      AUDIT_ALLOWED_HOSTS: `${fixtures.hostPort},${fixtures.crossOriginHostPort}`,
      SMTP_URL: mail.url,
    };
    const config = testConfig(env);
    const temporal = await temporalEnvironment();
    const audit = await createAuditWorker({
      connection: temporal.nativeConnection,
      namespace: temporal.namespace ?? 'default',
      taskQueue: AUDIT_TEST_QUEUE,
      workflowBundle: await workflowBundle(),
      db: serviceDatabase(),
      email: config.email,
      chromiumPath: config.audits.chromiumPath,
      poolSize: HARNESS_SLOTS.full,
      instantSlots: HARNESS_SLOTS.instant,
      allowPrivateUrls: config.audits.allowPrivateUrls,
      allowedHosts: config.audits.allowedHosts,
      serviceTaskQueue: TEST_TASK_QUEUE,
      credentialsSecret: config.auth.jwtSecret,
    });
    // A worker that stops by itself (it failed) is not handed to the next file, which starts a
    // harness of its own; its failure still fails the stop.
    let workerStopped = false;
    const running = audit.run().finally(() => {
      workerStopped = true;
      forget(entry);
    });
    parts.stops.unshift(async () => {
      if (!workerStopped) audit.shutdown();
      await running;
    });
    const api = await startTestApi({ env });
    parts.stops.unshift(() => api.stop());
    return { fixtures, mail, api };
  })();
  const stop = async () => {
    for (const part of parts.stops) await part();
  };
  const entry: SharedHarness = {
    harness,
    users: 1,
    kept: keptForRun(async () => {
      forget(entry);
      await stop();
    }),
    stop,
  };
  shared = entry;
  // One that failed to start is not handed on either: the next file tries again.
  harness.catch(() => forget(entry));
  return harness;
}

/** Stops handing `entry` out (whoever holds it still stops it). */
function forget(entry: SharedHarness): void {
  if (shared === entry) shared = undefined;
}

export async function releaseAuditHarness(): Promise<void> {
  if (!shared || --shared.users > 0 || shared.kept) return;
  const { stop } = shared;
  shared = undefined;
  await stop();
}
