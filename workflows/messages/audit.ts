// The audit workflows' id, task queue and input (workflows/audit.ts); the instant audit's input and
// output are its activity's (activities/audits/audit-activities.ts). Dependency-free.
import type { Viewport } from '../../lib/audits.ts';

export const fullAuditWorkflowId = (auditJobId: string): string => `audit:${auditJobId}`;

/**
 * Instant audits have a task queue of their own, polled by the same audit worker process with its
 * own activity slots: a full audit's pages (up to 60 s each) never hold the slot an instant audit
 * waits for.
 */
export const instantAuditTaskQueue = (auditTaskQueue: string): string => `${auditTaskQueue}-instant`;

export interface FullAuditInput {
  readonly auditJobId: string;
  readonly url: string;
  readonly crawl: boolean;
  readonly maxPages: number;
  readonly viewport: Viewport;
  /** Headers and cookies for the start URL's origin, sealed (lib/audit-credentials.ts); never in clear. */
  readonly sealedCredentials?: string;
}
