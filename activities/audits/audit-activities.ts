import { ApplicationFailure, Context } from '@temporalio/activity';
import { recordWebhookEvent } from '../../db/repositories/webhooks.ts';
import { auditCompletedEvent } from '../../commands/webhooks/webhook-events.ts';
import { announceDeliveries } from '../webhooks/announce.ts';
import { errors as playwrightErrors } from 'playwright-core';
import type { EmailAttachment, EmailSender } from '../../clients/email.ts';
import type { Db } from '../../db/connection.ts';
import { workerMetrics } from '../worker-metrics.ts';
import { asSystem } from '../../db/doors.ts';
import {
  findAuditJob,
  finishAuditJob,
  listAuditPageOutlines,
  listAuditPages,
  listAuditScreenshots,
  markAuditJobRunning,
  saveAuditPage,
  setAuditProgress,
  storedPageIssues,
} from '../../db/repositories/audits.ts';
import { judgedAcrossPages } from './across-pages.ts';
import { AuditTimeoutError, type BrowserPool } from './browser-pool.ts';
import { annotatedScreenshots, auditPage } from './page-audit.ts';
import { renderReportHtml, summarize, type AuditSummary, type ReportPage } from './report.ts';
import {
  AUDIT_CATEGORIES,
  INSTANT_TIMEOUT_MESSAGE,
  type AuditCategory,
  type AuditIssue,
  type IssueCounts,
  type Viewport,
} from '../../lib/audits.ts';
import type { AuditGrade } from '../../lib/domain.ts';
import { assertAuditableUrl, BlockedUrlError, type UrlPolicy } from '../../lib/url-guard.ts';
import { AUDIT_FAILURES, AUDIT_JOB_MISSING } from '../../lib/failures.ts';
import { UnusableCredentialsError, unsealCredentials } from '../../lib/audit-credentials.ts';

export interface AuditActivityDependencies {
  readonly db: Db;
  readonly pool: BrowserPool;
  readonly email: EmailSender;
  readonly urlPolicy: UrlPolicy;
  /** Where the service's workflows run: an audit's webhook deliveries start there, not on the audit queue. */
  readonly serviceTaskQueue: string;
  /** The secret the API sealed requests' credentials under (JWT_SECRET): lib/audit-credentials.ts. */
  readonly credentialsSecret: string;
  readonly now?: () => Date;
}

export interface InstantAuditInput {
  readonly url: string;
  readonly viewport: Viewport;
  readonly categories: readonly AuditCategory[];
  /** Headers and cookies for the audited origin, sealed (`sealCredentials`); never in clear. */
  readonly sealedCredentials?: string;
}

export interface InstantAuditOutput {
  readonly url: string;
  readonly score: number;
  readonly grade: AuditGrade;
  readonly issueCounts: IssueCounts;
  readonly issues: readonly AuditIssue[];
}

export interface AuditPageInput {
  readonly auditJobId: string;
  readonly position: number;
  readonly url: string;
  readonly viewport: Viewport;
  /** The job's credentials for its start URL's origin, sealed; never in clear. */
  readonly sealedCredentials?: string;
}

export interface AuditedPage {
  readonly url: string;
  readonly score: number;
  readonly links: readonly string[];
}

/**
 * Instant audits answer an HTTP request that waits; the spec gives them under 10 seconds from the
 * request's arrival. The workflow gives the activity what is left of them from being scheduled
 * (schedule-to-close); the activity ends its own work a little earlier (and never takes more than
 * 9 s), so it can still answer and frees its browser context in time.
 */
const INSTANT_AUDIT_BUDGET_MS = 9_000;
const INSTANT_ANSWER_MARGIN_MS = 500;
/** Less time than this left after waiting for a slot: no audit can finish, so do not start one. */
const INSTANT_MINIMUM_MS = 1_500;
const REPORT_PAGE_BUDGET_MS = 60_000;
const SCREENSHOTS_PER_PAGE = 10;
/** Time kept after the Tab walk for the focus-indicator check (and screenshots in full audits). */
const AFTER_WALK_MS = { instant: 1_000, report: 15_000 } as const;

/** The browser side of audits; runs only on the audit task queue, where the browser pool lives. */
export function createAuditActivities(deps: AuditActivityDependencies) {
  const now = deps.now ?? (() => new Date());

  async function audit(
    url: string,
    viewport: Viewport,
    budgetMs: number,
    categories: readonly AuditCategory[],
    shots: boolean,
    sealedCredentials?: string,
  ) {
    const started = Date.now();
    const checked = async () => {
      await guarded(() => assertAuditableUrl(url, deps.urlPolicy));
      const credentials =
        sealedCredentials === undefined
          ? undefined
          : await guarded(() =>
              Promise.resolve(unsealCredentials(sealedCredentials, deps.credentialsSecret, now())),
            );
      const timeoutMs = budgetMs - (Date.now() - started);
      const afterWalk = shots ? AFTER_WALK_MS.report : AFTER_WALK_MS.instant;
      return guarded(() =>
        deps.pool.withPage({ viewport, timeoutMs }, async (page, egress) => {
          const result = await auditPage(page, url, {
            categories,
            egress,
            navigationTimeoutMs: Math.round(timeoutMs * 0.6),
            walkDeadline: started + budgetMs - afterWalk,
            outline: shots,
            ...(credentials ? { credentials } : {}),
          });
          const screenshots = shots
            ? await annotatedScreenshots(page, result.issues, SCREENSHOTS_PER_PAGE)
            : new Map<string, Buffer>();
          return { result, screenshots };
        }),
      );
    };
    // audit_duration_seconds, by kind and outcome (`ok`, or the failure's type: a timeout, a blocked URL).
    let outcome = 'ok';
    try {
      return await checked();
    } catch (error) {
      outcome = error instanceof ApplicationFailure ? (error.type ?? 'failed') : 'failed';
      throw error;
    } finally {
      workerMetrics().auditDuration(shots ? 'report' : 'instant', outcome, (Date.now() - started) / 1000);
    }
  }

  return {
    async runInstantAudit(input: InstantAuditInput): Promise<InstantAuditOutput> {
      const budgetMs = instantBudgetMs();
      if (budgetMs < INSTANT_MINIMUM_MS) {
        throw ApplicationFailure.nonRetryable(INSTANT_TIMEOUT_MESSAGE, AUDIT_FAILURES.timeout);
      }
      let result;
      try {
        ({ result } = await audit(
          input.url,
          input.viewport,
          budgetMs,
          input.categories,
          false,
          input.sealedCredentials,
        ));
      } catch (error) {
        // Loading or checking, out of time is one answer for the caller: the documented one.
        if (error instanceof ApplicationFailure && error.type === AUDIT_FAILURES.timeout) {
          throw ApplicationFailure.nonRetryable(INSTANT_TIMEOUT_MESSAGE, AUDIT_FAILURES.timeout);
        }
        throw error;
      }
      return {
        url: result.url,
        score: result.score,
        grade: result.grade,
        issueCounts: result.issueCounts,
        issues: result.issues,
      };
    },

    async markAuditRunning(input: { auditJobId: string }): Promise<void> {
      await asSystem(deps.db, (tx) => markAuditJobRunning(tx, input.auditJobId, now()));
    },

    async auditReportPage(input: AuditPageInput): Promise<AuditedPage> {
      const { result, screenshots } = await audit(
        input.url,
        input.viewport,
        REPORT_PAGE_BUDGET_MS,
        AUDIT_CATEGORIES,
        true,
        input.sealedCredentials,
      );
      await asSystem(deps.db, (tx) =>
        saveAuditPage(
          tx,
          {
            audit_job_id: input.auditJobId,
            position: input.position,
            url: result.url,
            score: result.score,
            grade: result.grade,
            issue_counts: JSON.stringify(result.issueCounts),
            issues: JSON.stringify({ issues: result.issues, fixes: result.fixes }),
            outline: result.outline ? JSON.stringify(result.outline) : null,
            audited_at: now(),
          },
          screenshots,
        ),
      );
      return { url: result.url, score: result.score, links: result.links };
    },

    async recordAuditProgress(input: {
      auditJobId: string;
      pagesDone: number;
      pagesPlanned: number;
    }): Promise<void> {
      await asSystem(deps.db, (tx) =>
        setAuditProgress(tx, input.auditJobId, input.pagesDone, input.pagesPlanned),
      );
    },

    /** Builds the report from the stored pages, prints its PDF, mails both and records the job complete. */
    async deliverAuditReport(input: { auditJobId: string }): Promise<{ deliveredTo: string[] }> {
      const { job, pages, screenshots } = await asSystem(deps.db, async (tx) => ({
        job: await findAuditJob(tx, input.auditJobId),
        pages: await judgedAcrossPages(
          tx,
          await listAuditPages(tx, input.auditJobId),
          await listAuditPageOutlines(tx, input.auditJobId),
        ),
        screenshots: await listAuditScreenshots(tx, input.auditJobId),
      }));
      if (!job)
        throw ApplicationFailure.nonRetryable(`Audit job ${input.auditJobId} not found`, AUDIT_JOB_MISSING);
      const reportPages: ReportPage[] = pages.map((page) => {
        const stored = storedPageIssues(page);
        return {
          position: page.position,
          url: page.url,
          score: page.score,
          grade: page.grade,
          issueCounts: page.issue_counts as IssueCounts,
          issues: stored.issues,
          fixes: stored.fixes ?? {},
        };
      });
      const summary = summarize(reportPages);
      const title = job.report_title ?? `Accessibility audit of ${job.url}`;
      const base = { title, url: job.url, crawl: job.crawl, pages: reportPages, summary };
      const cid = (position: number, issueId: string) => `shot-${position}-${issueId}@audit`;
      const html = renderReportHtml({
        ...base,
        screenshotSrc: (position, issueId) =>
          screenshots.has(`${position}:${issueId}`) ? `cid:${cid(position, issueId)}` : undefined,
      });
      const printable = renderReportHtml({
        ...base,
        screenshotSrc: (position, issueId) => {
          const image = screenshots.get(`${position}:${issueId}`);
          return image ? `data:image/png;base64,${image.toString('base64')}` : undefined;
        },
      });
      const pdf = await deps.pool.withPage(
        { viewport: { width: 1280, height: 800 }, timeoutMs: 60_000 },
        async (page) => {
          await page.setContent(printable, { waitUntil: 'load' });
          // Tagged (headings, lists, tables and images with their alternatives in the structure tree,
          // so screen readers read it) and with an outline of the report's headings to navigate by.
          return page.pdf({ format: 'A4', printBackground: true, tagged: true, outline: true });
        },
      );
      const attachments: EmailAttachment[] = [
        { filename: 'accessibility-report.pdf', content: pdf, contentType: 'application/pdf' },
        { filename: 'accessibility-report.html', content: Buffer.from(printable), contentType: 'text/html' },
        ...[...screenshots].map(([key, image]) => {
          const [position, issueId] = splitKey(key);
          return {
            filename: `${issueId}.png`,
            content: image,
            contentType: 'image/png',
            cid: cid(position, issueId),
          };
        }),
      ];
      await deps.email.send({
        to: job.recipients,
        subject: `${title}: ${summary.score}/100, grade ${summary.grade}`,
        text: plainText(title, job.url, summary),
        html,
        attachments,
      });
      const deliveries = await asSystem(deps.db, async (tx) => {
        const at = now();
        await finishAuditJob(tx, job.id, {
          status: 'complete',
          result: summary,
          error: null,
          deliveredTo: job.recipients,
          at,
        });
        // Audits asked for by someone outside any organization (a tester, an admin) announce nothing.
        if (!job.organization_id) return [];
        const audit = { id: job.id, organizationId: job.organization_id, url: job.url };
        return recordWebhookEvent(tx, auditCompletedEvent(audit, at));
      });
      await announceDeliveries(deliveries, deps.serviceTaskQueue);
      return { deliveredTo: job.recipients };
    },

    async recordAuditFailure(input: { auditJobId: string; error: string }): Promise<void> {
      await asSystem(deps.db, (tx) =>
        finishAuditJob(tx, input.auditJobId, {
          status: 'failed',
          result: null,
          error: input.error,
          deliveredTo: null,
          at: now(),
        }),
      );
    },
  };
}

export type AuditActivities = ReturnType<typeof createAuditActivities>;

/** The instant audit's time: 9 s, or less when the activity's schedule-to-close (the request's deadline) comes sooner. */
function instantBudgetMs(): number {
  const { info } = Context.current();
  if (!info.scheduleToCloseTimeoutMs) return INSTANT_AUDIT_BUDGET_MS;
  const closesAt = info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs;
  return Math.min(INSTANT_AUDIT_BUDGET_MS, closesAt - Date.now() - INSTANT_ANSWER_MARGIN_MS);
}

function splitKey(key: string): [number, string] {
  const at = key.indexOf(':');
  return [Number(key.slice(0, at)), key.slice(at + 1)];
}

function plainText(title: string, url: string, summary: AuditSummary): string {
  return [
    title,
    `URL: ${url}`,
    `Overall score: ${summary.score}/100 (grade ${summary.grade})`,
    `Issues: ${summary.issueCounts.critical} critical, ${summary.issueCounts.serious} serious, ${summary.issueCounts.moderate} moderate, ${summary.issueCounts.minor} minor`,
    '',
    ...summary.pages.map((page) => `${page.url}: ${page.score} (${page.grade})`),
    '',
    'The full report is attached as PDF and HTML.',
  ].join('\n');
}

/** Turns the failures no retry can fix into non-retryable ones the workflow and the API can read. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BlockedUrlError)
      throw ApplicationFailure.nonRetryable(error.message, AUDIT_FAILURES.blockedUrl);
    if (error instanceof AuditTimeoutError)
      throw ApplicationFailure.nonRetryable(error.message, AUDIT_FAILURES.timeout);
    if (error instanceof UnusableCredentialsError)
      throw ApplicationFailure.nonRetryable(error.message, AUDIT_FAILURES.credentials);
    if (
      error instanceof playwrightErrors.TimeoutError &&
      /page\.(goto|waitForFunction)/.test(error.message)
    ) {
      throw ApplicationFailure.nonRetryable(
        `url: The page did not finish loading in time (${error.message.split('\n')[0]})`,
        AUDIT_FAILURES.timeout,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    if (/net::ERR_|Navigation|page\.goto/i.test(message)) {
      throw ApplicationFailure.nonRetryable(
        `url: The page could not be loaded (${message.split('\n')[0]})`,
        AUDIT_FAILURES.pageLoad,
      );
    }
    throw error;
  }
}
