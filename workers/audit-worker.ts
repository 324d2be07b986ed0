import { Worker, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import { createAuditActivities } from '../activities/audits/audit-activities.ts';
import { BrowserPool } from '../activities/audits/browser-pool.ts';
import { createEmailSender, type EmailSettings } from '../activities/notify/email.ts';
import type { Db } from '../db/connection.ts';
import { WORKFLOWS_PATH } from './service-worker.ts';

export interface AuditWorkerOptions {
  readonly connection: NativeConnection;
  readonly namespace: string;
  /** The audit task queue: only workers that own a browser poll it. */
  readonly taskQueue: string;
  readonly workflowBundle?: WorkflowBundle;
  readonly db: Db;
  readonly email: EmailSettings;
  readonly chromiumPath: string;
  readonly poolSize: number;
  readonly allowPrivateUrls: boolean;
}

export interface AuditWorker {
  readonly worker: Worker;
  /** Runs until shutdown, then closes the browser and the mail transport. */
  run(): Promise<void>;
}

/**
 * The worker for the audit task queue: its own queue so that browser work, which needs Chromium
 * and a lot of memory, runs only where a browser is installed and never delays study workflows.
 * Concurrency follows the warm pool, one page per context.
 */
export async function createAuditWorker(options: AuditWorkerOptions): Promise<AuditWorker> {
  const pool = new BrowserPool({ executablePath: options.chromiumPath, size: options.poolSize });
  const email = createEmailSender(options.email);
  try {
    await pool.start();
    const worker = await Worker.create({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      ...(options.workflowBundle
        ? { workflowBundle: options.workflowBundle }
        : { workflowsPath: WORKFLOWS_PATH }),
      activities: createAuditActivities({
        db: options.db,
        pool,
        email,
        allowPrivateUrls: options.allowPrivateUrls,
      }),
      maxConcurrentActivityTaskExecutions: options.poolSize,
    });
    return {
      worker,
      async run() {
        try {
          await worker.run();
        } finally {
          await pool.close();
          email.close();
        }
      },
    };
  } catch (error) {
    await pool.close();
    email.close();
    throw error;
  }
}
