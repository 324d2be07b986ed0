import { Worker, type NativeConnection, type WorkerPlugin, type WorkflowBundle } from '@temporalio/worker';
import { createAuditActivities, type InstantAuditInput } from '../activities/audits/audit-activities.ts';
import { BrowserPool } from '../activities/audits/browser-pool.ts';
import { textRecognizer } from '../activities/audits/text-recognition.ts';
import { createFindingScreenshotActivities } from '../activities/recordings/finding-screenshots.ts';
import { createEmailSender, type EmailSettings } from '../clients/email.ts';
import type { Db } from '../db/connection.ts';
import { instantAuditTaskQueue } from '../workflows/messages/audit.ts';
import { WORKFLOWS_PATH } from './service-worker.ts';

export interface AuditWorkerOptions {
  readonly connection: NativeConnection;
  readonly namespace: string;
  /** The audit task queue: only workers that own a browser poll it (and its instant twin). */
  readonly taskQueue: string;
  readonly workflowBundle?: WorkflowBundle;
  readonly db: Db;
  readonly email: EmailSettings;
  readonly chromiumPath: string;
  /** Warm browser contexts, and the slots for full-audit pages. */
  readonly poolSize: number;
  /** Slots reserved for instant audits; the pool size when not given. */
  readonly instantSlots?: number;
  readonly allowPrivateUrls: boolean;
  /** Temporal worker plugins: the tracing one (workers/runtime.ts) when traces are on. */
  readonly plugins?: readonly WorkerPlugin[];
  /** The service's task queue, where audits' webhook deliveries run. */
  readonly serviceTaskQueue: string;
  /** `host:port` pairs audits may reach although they are private (`AUDIT_ALLOWED_HOSTS`). */
  readonly allowedHosts?: readonly string[];
  /** The secret the API seals requests' credentials under (JWT_SECRET). */
  readonly credentialsSecret: string;
}

export interface AuditWorker {
  /** Runs until shutdown, then closes the browser and the mail transport. */
  run(): Promise<void>;
  shutdown(): void;
}

/**
 * The workers for the audit task queues: their own queues so that browser work, which needs
 * Chromium and a lot of memory, runs only where a browser is installed and never delays study
 * workflows. One browser pool serves two workers in this process: full audits on the audit
 * queue, one page per slot, and instant audits on `<queue>-instant` with slots of their own, so
 * that an instant audit never waits behind a full audit's pages (it has under 10 s in all).
 */
export async function createAuditWorker(options: AuditWorkerOptions): Promise<AuditWorker> {
  // What audited pages may reach: checked by the activities before loading a URL, and enforced
  // on every connection by the pool's egress proxies.
  const urlPolicy = { allowPrivate: options.allowPrivateUrls, allowedHosts: options.allowedHosts ?? [] };
  const pool = new BrowserPool({
    executablePath: options.chromiumPath,
    size: options.poolSize,
    egress: urlPolicy,
  });
  const email = createEmailSender(options.email);
  try {
    await pool.start();
    const activities = {
      ...createAuditActivities({
        db: options.db,
        pool,
        email,
        urlPolicy,
        serviceTaskQueue: options.serviceTaskQueue,
        credentialsSecret: options.credentialsSecret,
      }),
      // The pictures of reported findings: replays and reconstructions need the same browser.
      ...createFindingScreenshotActivities({ db: options.db, pool, urlPolicy }),
    };
    const common = {
      connection: options.connection,
      namespace: options.namespace,
      plugins: [...(options.plugins ?? [])],
      ...(options.workflowBundle
        ? { workflowBundle: options.workflowBundle }
        : { workflowsPath: WORKFLOWS_PATH }),
    };
    const full = await Worker.create({
      ...common,
      taskQueue: options.taskQueue,
      activities,
      maxConcurrentActivityTaskExecutions: options.poolSize,
    });
    const instant = await Worker.create({
      ...common,
      taskQueue: instantAuditTaskQueue(options.taskQueue),
      activities: { runInstantAudit: (input: InstantAuditInput) => activities.runInstantAudit(input) },
      maxConcurrentActivityTaskExecutions: options.instantSlots ?? options.poolSize,
    });
    const shutdown = () => {
      for (const worker of [full, instant]) if (worker.getState() === 'RUNNING') worker.shutdown();
    };
    return {
      async run() {
        try {
          // When one stops on an error, the other stops too, and the browser closes after both.
          const stopping = (error: unknown) => {
            shutdown();
            throw error;
          };
          const ended = await Promise.allSettled([full.run().catch(stopping), instant.run().catch(stopping)]);
          const failed = ended.find((result) => result.status === 'rejected');
          if (failed) throw failed.reason;
        } finally {
          await pool.close();
          await textRecognizer.close();
          email.close();
        }
      },
      shutdown,
    };
  } catch (error) {
    await pool.close();
    email.close();
    throw error;
  }
}
