import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type {
  AuditActivities,
  InstantAuditInput,
  InstantAuditOutput,
} from '../activities/audits/audit-activities.ts';
import { INSTANT_TIMEOUT_MESSAGE } from '../lib/audits.ts';
import { AUDIT_FAILURES } from '../lib/failures.ts';
import type { FullAuditInput } from './messages/audit.ts';

// The HTTP caller waits for an instant audit. The API starts the workflow with what is left of the
// request's 10 seconds as its execution timeout; the activity gets one attempt and what is left of
// that, less the time the workflow needs to answer, from being scheduled to its answer (waiting
// for a slot included). Started without an execution timeout (by hand), it gets 9.5 s. With 300 ms
// here and 300 in the activity, a page walked to its deadline on a machine with both cores busy
// answered 503 (the activity's result reached the workflow too late); 700 and 500 leave room.
const WORKFLOW_ANSWER_MS = 700;
const INSTANT_UNBOUNDED_MS = 9_500;

const pages = proxyActivities<AuditActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 2, nonRetryableErrorTypes: [AUDIT_FAILURES.blockedUrl, AUDIT_FAILURES.pageLoad] },
});

const records = proxyActivities<AuditActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumInterval: '30 seconds', maximumAttempts: 10 },
});

const report = proxyActivities<AuditActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { maximumAttempts: 3 },
});

/** One page audited on the instant audit task queue while the API request waits. */
export async function instantAuditWorkflow(input: InstantAuditInput): Promise<InstantAuditOutput> {
  const expires = workflowInfo().executionExpirationTime;
  const budgetMs = expires ? expires.getTime() - Date.now() - WORKFLOW_ANSWER_MS : INSTANT_UNBOUNDED_MS;
  if (budgetMs <= 0) throw ApplicationFailure.nonRetryable(INSTANT_TIMEOUT_MESSAGE, AUDIT_FAILURES.timeout);
  const instant = proxyActivities<AuditActivities>({
    scheduleToCloseTimeout: budgetMs,
    retry: { maximumAttempts: 1 },
  });
  try {
    return await instant.runInstantAudit(input);
  } catch (error) {
    if (error instanceof ActivityFailure && error.cause instanceof TimeoutFailure) {
      throw ApplicationFailure.nonRetryable(INSTANT_TIMEOUT_MESSAGE, AUDIT_FAILURES.timeout);
    }
    throw error;
  }
}

/**
 * A full audit's life: queued (the API stored it) -> running -> complete or failed. Pages are
 * audited one at a time, breadth first from the start URL when crawling, following same-origin
 * links until `maxPages` are planned; progress is recorded after each page. A page that cannot be
 * audited is skipped; when none can be, the audit fails. Then the report is built and mailed.
 */
export async function fullAuditWorkflow(input: FullAuditInput): Promise<void> {
  const limit = input.crawl ? input.maxPages : 1;
  await records.markAuditRunning({ auditJobId: input.auditJobId });
  try {
    const planned = [input.url];
    const known = new Set(planned);
    let audited = 0;
    let firstError: string | undefined;
    for (let index = 0; index < planned.length; index++) {
      try {
        const page = await pages.auditReportPage({
          auditJobId: input.auditJobId,
          position: index + 1,
          url: planned[index]!,
          viewport: input.viewport,
          ...(input.sealedCredentials === undefined ? {} : { sealedCredentials: input.sealedCredentials }),
        });
        audited++;
        known.add(page.url);
        for (const link of input.crawl ? page.links : []) {
          if (planned.length >= limit) break;
          if (!known.has(link)) {
            known.add(link);
            planned.push(link);
          }
        }
      } catch (error) {
        firstError ??= messageOf(error);
      }
      await records.recordAuditProgress({
        auditJobId: input.auditJobId,
        pagesDone: index + 1,
        pagesPlanned: planned.length,
      });
    }
    if (!audited)
      throw ApplicationFailure.nonRetryable(firstError ?? 'No page could be audited', 'AuditFailed');
    await report.deliverAuditReport({ auditJobId: input.auditJobId });
  } catch (error) {
    await records.recordAuditFailure({ auditJobId: input.auditJobId, error: messageOf(error) });
  }
}

/** The innermost cause: an activity failure wraps the application failure that says what happened. */
function messageOf(error: unknown): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
