import { randomUUID } from 'node:crypto';
import { ApplicationFailure, TimeoutFailure } from '@temporalio/client';
import { AUDIT_FAILURES } from '../../lib/failures.ts';
import { assertAuditableUrl, BlockedUrlError } from '../../lib/url-guard.ts';
import { asUser } from '../../db/doors.ts';
import { findUserEmail, insertAuditJob, insertInstantAudit } from '../../db/repositories/audits.ts';
import { fullAuditWorkflow, instantAuditWorkflow } from '../../workflows/audit.ts';
import { fullAuditWorkflowId, instantAuditTaskQueue } from '../../workflows/messages/audit.ts';
import type { Principal } from '../principal.ts';
import { ApiError, invalid } from '../../lib/errors.ts';
import { credentialsOf, type FullAuditRequest, type InstantAuditRequest } from './audit.schema.ts';
import { sealCredentials } from '../../lib/audit-credentials.ts';
import type { CommandContext } from '../context.ts';

/** The spec's limit for an instant audit, from the request's arrival to its answer. */
export const INSTANT_AUDIT_LIMIT_MS = 10_000;
/**
 * Kept at the end of the limit for storing the result and sending the answer: generous, so that a
 * busy API process (or a Temporal timeout reported a little late) still answers in time.
 */
const STORE_AND_ANSWER_MS = 1_000;
/** With less than this left for the workflow no audit can finish in time: answer 503 at once. */
const WORKFLOW_MINIMUM_MS = 1_000;
/**
 * How long a request's sealed credentials open: past the instant audit's answer, and a day for a
 * full audit (it may wait in the queue); after that the audit worker refuses them. (The expiry is
 * inside the sealed value: whoever holds JWT_SECRET can still open it, as they can sign tokens.)
 */
const CREDENTIALS_LIFETIME_MS = { instant: 60_000, full: 24 * 60 * 60_000 } as const;

/** The request's headers and cookies for the audited URL's origin, sealed for the workflow's input. */
function sealedCredentialsOf(
  deps: CommandContext,
  input: InstantAuditRequest | FullAuditRequest,
  kind: keyof typeof CREDENTIALS_LIFETIME_MS,
): { sealedCredentials?: string } {
  const credentials = credentialsOf(input);
  if (!credentials) return {};
  const expiresAt = new Date(deps.now().getTime() + CREDENTIALS_LIFETIME_MS[kind]);
  return { sealedCredentials: sealCredentials(credentials, deps.config.auth.jwtSecret, expiresAt) };
}

/**
 * Runs one page's audit on the audit worker and answers with it as stored for the caller's
 * organization (api/audits/audit-view.ts shows it). `receivedAt` (`performance.now()` when the
 * request arrived) is where the 10 seconds start: whatever the URL check and the rest of the request
 * took is not given to the workflow, which gets only what is left before the answer is due.
 */
export async function runInstantAudit(
  deps: CommandContext,
  principal: Principal,
  input: InstantAuditRequest,
  receivedAt: number = performance.now(),
) {
  const answerBy = receivedAt + INSTANT_AUDIT_LIMIT_MS - STORE_AND_ANSWER_MS;
  await checkUrl(deps, input.url);
  const output = await auditWithin(deps, input, answerBy);
  return asUser(deps.db, principal.claims, (tx) =>
    insertInstantAudit(tx, {
      organization_id: principal.organizationId,
      requested_by: principal.claims.sub,
      url: input.url,
      score: output.score,
      grade: output.grade,
      result: JSON.stringify({
        issueCounts: output.issueCounts,
        issues: output.issues,
        finalUrl: output.url,
      }),
      completed_at: deps.now(),
    }),
  );
}

/** Stores the job as queued and starts its workflow; the workflow reports everything after that. */
export async function queueFullAudit(deps: CommandContext, principal: Principal, input: FullAuditRequest) {
  await checkUrl(deps, input.url);
  const row = await asUser(deps.db, principal.claims, async (tx) => {
    const requester = await findUserEmail(tx, principal.claims.sub);
    const recipients = [...new Set([...(requester ? [requester] : []), ...input.recipientEmails])];
    if (!recipients.length) throw invalid('recipientEmails: At least one recipient is required');
    return insertAuditJob(tx, {
      organization_id: principal.organizationId,
      requested_by: principal.claims.sub,
      url: input.url,
      crawl: input.crawl,
      max_pages: input.maxPages,
      viewport_width: input.viewport.width,
      viewport_height: input.viewport.height,
      report_title: input.reportTitle ?? null,
      recipients,
      queued_at: deps.now(),
    });
  });
  await deps.temporal.workflow.start(fullAuditWorkflow, {
    taskQueue: deps.config.audits.taskQueue,
    workflowId: fullAuditWorkflowId(row.id),
    args: [
      {
        auditJobId: row.id,
        url: row.url,
        crawl: row.crawl,
        maxPages: row.max_pages,
        viewport: input.viewport,
        ...sealedCredentialsOf(deps, input, 'full'),
      },
    ],
  });
  return row;
}

/**
 * Executes the instant audit workflow with the time left until `answerBy` (a `performance.now()`
 * instant) as its execution timeout; the workflow hands its activity what is left of that in turn
 * (workflows/audit.ts). Temporal's own timeout is the normal end of a wait that no audit worker
 * takes up; the local timer answers even when the server reports it late.
 */
async function auditWithin(deps: CommandContext, input: InstantAuditRequest, answerBy: number) {
  const left = Math.floor(answerBy - performance.now());
  if (left < WORKFLOW_MINIMUM_MS) throw notInTime();
  let timer: NodeJS.Timeout | undefined;
  try {
    const handle = await deps.temporal.workflow.start(instantAuditWorkflow, {
      taskQueue: instantAuditTaskQueue(deps.config.audits.taskQueue),
      workflowId: `instant-audit:${randomUUID()}`,
      args: [
        {
          url: input.url,
          viewport: input.viewport,
          categories: input.checkCategories,
          ...sealedCredentialsOf(deps, input, 'instant'),
        },
      ],
      workflowExecutionTimeout: left,
    });
    const result = handle.result();
    result.catch(() => undefined); // when the timer wins, nobody awaits it any more
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(notInTime()), Math.max(0, answerBy - performance.now()));
    });
    return await Promise.race([result, late]);
  } catch (error) {
    throw refusalOf(error) ?? unavailableOf(error) ?? error;
  } finally {
    clearTimeout(timer);
  }
}

async function checkUrl(deps: CommandContext, url: string): Promise<void> {
  try {
    await assertAuditableUrl(url, {
      allowPrivate: deps.config.audits.allowPrivateUrls,
      allowedHosts: deps.config.audits.allowedHosts ?? [],
    });
  } catch (error) {
    if (error instanceof BlockedUrlError) throw invalid(error.message);
    throw error;
  }
}

/** A page that is refused, cannot load or runs out of time is the request's problem (422), not ours. */
function refusalOf(error: unknown) {
  const known: readonly string[] = Object.values(AUDIT_FAILURES);
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof ApplicationFailure && current.type && known.includes(current.type)) {
      return invalid(current.message.startsWith('url:') ? current.message : `url: ${current.message}`);
    }
  }
  return undefined;
}

/** The workflow itself timed out: no audit worker took it (down or overloaded), 503. */
function unavailableOf(error: unknown) {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof TimeoutFailure) return notInTime();
  }
  return undefined;
}

const notInTime = () =>
  new ApiError('unavailable', 'The audit service did not take the audit in time; try again');
