import { ApplicationFailure } from '@temporalio/activity';
import type { EmailAttachment, EmailSender } from '../notify/email.ts';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  findAuditJob,
  finishAuditJob,
  listAuditPages,
  listAuditScreenshots,
  markAuditJobRunning,
  saveAuditPage,
  setAuditProgress,
} from '../../db/repositories/audits.ts';
import { AuditTimeoutError, type BrowserPool } from './browser-pool.ts';
import { annotatedScreenshots, auditPage } from './page-audit.ts';
import { renderReportHtml, summarize, type AuditSummary, type ReportPage } from './report.ts';
import {
  AUDIT_CATEGORIES,
  type AuditCategory,
  type AuditIssue,
  type Grade,
  type IssueCounts,
  type Viewport,
} from './types.ts';
import { assertAuditableUrl, BlockedUrlError } from './url-guard.ts';

/** Failure types that retrying cannot fix; the API maps them to 422. */
export const AUDIT_FAILURES = {
  blockedUrl: 'BlockedUrlError',
  pageLoad: 'PageLoadError',
  timeout: 'AuditTimeoutError',
} as const;

export interface AuditActivityDependencies {
  readonly db: Db;
  readonly pool: BrowserPool;
  readonly email: EmailSender;
  readonly allowPrivateUrls: boolean;
  readonly now?: () => Date;
}

export interface InstantAuditInput {
  readonly url: string;
  readonly viewport: Viewport;
  readonly categories: readonly AuditCategory[];
}

export interface InstantAuditOutput {
  readonly url: string;
  readonly score: number;
  readonly grade: Grade;
  readonly issueCounts: IssueCounts;
  readonly issues: readonly AuditIssue[];
}

export interface AuditPageInput {
  readonly auditJobId: string;
  readonly position: number;
  readonly url: string;
  readonly viewport: Viewport;
}

export interface AuditedPage {
  readonly url: string;
  readonly score: number;
  readonly links: readonly string[];
}

/** Instant audits answer an HTTP request that waits; the spec gives them under 10 seconds. */
export const INSTANT_AUDIT_BUDGET_MS = 9_000;
const REPORT_PAGE_BUDGET_MS = 60_000;
const SCREENSHOTS_PER_PAGE = 10;

/** The browser side of audits; runs only on the audit task queue, where the browser pool lives. */
export function createAuditActivities(deps: AuditActivityDependencies) {
  const now = deps.now ?? (() => new Date());

  async function audit(
    url: string,
    viewport: Viewport,
    budgetMs: number,
    categories: readonly AuditCategory[],
    shots: boolean,
  ) {
    await guarded(() => assertAuditableUrl(url, { allowPrivate: deps.allowPrivateUrls }));
    return guarded(() =>
      deps.pool.withPage({ viewport, timeoutMs: budgetMs }, async (page) => {
        const result = await auditPage(page, url, {
          categories,
          allowPrivate: deps.allowPrivateUrls,
          navigationTimeoutMs: Math.round(budgetMs * 0.6),
        });
        const screenshots = shots
          ? await annotatedScreenshots(page, result.issues, SCREENSHOTS_PER_PAGE)
          : new Map<string, Buffer>();
        return { result, screenshots };
      }),
    );
  }

  return {
    async runInstantAudit(input: InstantAuditInput): Promise<InstantAuditOutput> {
      const { result } = await audit(
        input.url,
        input.viewport,
        INSTANT_AUDIT_BUDGET_MS,
        input.categories,
        false,
      );
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
        pages: await listAuditPages(tx, input.auditJobId),
        screenshots: await listAuditScreenshots(tx, input.auditJobId),
      }));
      if (!job)
        throw ApplicationFailure.nonRetryable(`Audit job ${input.auditJobId} not found`, 'AuditJobMissing');
      const reportPages: ReportPage[] = pages.map((page) => {
        const stored = page.issues as unknown as { issues: AuditIssue[]; fixes: Record<string, string> };
        return {
          position: page.position,
          url: page.url,
          score: page.score,
          grade: page.grade,
          issueCounts: page.issue_counts as IssueCounts,
          issues: stored.issues,
          fixes: stored.fixes,
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
          return page.pdf({ format: 'A4', printBackground: true });
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
      await asSystem(deps.db, (tx) =>
        finishAuditJob(tx, job.id, {
          status: 'complete',
          result: summary,
          error: null,
          deliveredTo: job.recipients,
          at: now(),
        }),
      );
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
