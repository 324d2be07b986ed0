import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import { studyContacts } from '../../db/repositories/contacts.ts';
import { insertStudyAuditJob, prototypeOfStudy } from '../../db/repositories/study-audits.ts';
import { assertAuditableUrl, BlockedUrlError, type UrlPolicy } from '../../lib/url-guard.ts';
import { fullAuditWorkflowId, type FullAuditInput } from '../../workflows/messages/audit.ts';
import type { fullAuditWorkflow } from '../../workflows/audit.ts';

/** Where a worker sends the audits of studies' prototypes (workers/main.ts: the audit settings). */
export interface PrototypeAuditSettings {
  /** The audit worker's task queue (`AUDIT_TASK_QUEUE`). */
  readonly taskQueue: string;
  /** Which prototypes may be audited: the audits' own URL policy. */
  readonly urlPolicy: UrlPolicy;
}

/**
 * A study's prototype is audited as a full audit of up to this many pages, crawled from its URL at
 * the full audit's default viewport: a prototype is a few pages, and the spec's default is five.
 */
export const PROTOTYPE_AUDIT = { maxPages: 5, viewport: { width: 1280, height: 800 } } as const;
/** A full audit names at most this many recipients (the column's check). */
const MAX_AUDIT_RECIPIENTS = 21;

export type PrototypeAuditOutcome =
  | { readonly auditJobId: string }
  | { readonly skipped: 'not-configured' | 'not-a-url' | 'not-public' | 'no-contact' | 'unknown-study' };

/**
 * The audit of a study's prototype, when it is a public URL (docs/decisions/audits.md, "Audits
 * beside studies"): stored as a full audit of the study's organization, requested by the study's
 * creator (or its owners when the creator is gone) and mailed to them, then started on the audit
 * worker. A retry, or a second activation, finds the audit queued before and starts nothing new.
 */
export function createPrototypeAuditActivities({
  db,
  audits,
}: {
  readonly db: Db;
  readonly audits: PrototypeAuditSettings | undefined;
}) {
  return {
    async auditPrototype(input: { studyId: string }): Promise<PrototypeAuditOutcome> {
      const { log, client } = Context.current();
      if (!audits) return { skipped: 'not-configured' };
      const found = await asSystem(db, async (tx) => ({
        study: await prototypeOfStudy(tx, input.studyId),
        contacts: await studyContacts(tx, input.studyId),
      }));
      if (!found.study) return { skipped: 'unknown-study' };
      // A design tool's link opens the tool's own page, not the product: nothing of it to audit.
      if (found.study.prototype_type !== 'url') return { skipped: 'not-a-url' };
      try {
        await assertAuditableUrl(found.study.prototype_url, audits.urlPolicy);
      } catch (error) {
        if (!(error instanceof BlockedUrlError)) throw error;
        log.info('The prototype is not audited: its address is not a public one', {
          studyId: input.studyId,
          reason: error.message,
        });
        return { skipped: 'not-public' };
      }
      const [requester] = found.contacts;
      if (!requester) return { skipped: 'no-contact' };
      const row = await asSystem(db, (tx) =>
        insertStudyAuditJob(tx, {
          study_id: input.studyId,
          organization_id: found.study!.organization_id,
          requested_by: requester.id,
          url: found.study!.prototype_url,
          crawl: true,
          max_pages: PROTOTYPE_AUDIT.maxPages,
          viewport_width: PROTOTYPE_AUDIT.viewport.width,
          viewport_height: PROTOTYPE_AUDIT.viewport.height,
          report_title: null,
          recipients: found.contacts.slice(0, MAX_AUDIT_RECIPIENTS).map((contact) => contact.email),
          queued_at: new Date(),
        }),
      );
      const workflowInput: FullAuditInput = {
        auditJobId: row.id,
        url: row.url,
        crawl: row.crawl,
        maxPages: row.max_pages,
        viewport: { width: row.viewport_width, height: row.viewport_height },
      };
      try {
        await client.workflow.start<typeof fullAuditWorkflow>('fullAuditWorkflow', {
          taskQueue: audits.taskQueue,
          workflowId: fullAuditWorkflowId(row.id),
          args: [workflowInput],
          // Once: a retry after the audit ended must not run it again over its finished record.
          workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        });
      } catch (error) {
        if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      }
      return { auditJobId: row.id };
    },
  };
}

export type PrototypeAuditActivities = ReturnType<typeof createPrototypeAuditActivities>;
