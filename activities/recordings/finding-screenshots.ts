import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Page } from 'playwright-core';
import type { Db } from '../../db/connection.ts';
import { asSystem } from '../../db/doors.ts';
import {
  findingsToPicture,
  momentEvents,
  saveFindingScreenshot,
  type FindingScreenshotRecord,
  type FindingToPicture,
} from '../../db/repositories/finding-screenshots.ts';
import { screenshotAltText } from '../../lib/finding-screenshots.ts';
import { assertAuditableUrl, BlockedUrlError, type UrlPolicy } from '../../lib/url-guard.ts';
import type { BrowserPool } from '../audits/browser-pool.ts';
import { loadPage } from '../audits/page-audit.ts';
import { momentViewport, replayMoment } from './moment-screenshot.ts';

// The pictures of a tester report's findings (issue 32; docs/decisions/sessions.md, "A picture of
// each finding"), made where Chromium is: the audit worker. Each finding's moment is replayed from
// the session's DOM recording; a moment no recording covers is pictured from the study's prototype
// page loaded fresh, through the audit's URL guard and egress proxy, and marked reconstructed.

export interface FindingScreenshotDependencies {
  readonly db: Db;
  readonly pool: BrowserPool;
  readonly urlPolicy: UrlPolicy;
}

export interface FindingScreenshotsInput {
  readonly sessionId: string;
}

export interface FindingScreenshotsOutput {
  readonly replayed: number;
  readonly reconstructed: number;
  readonly missing: number;
}

/** A replay gets this long (its page, the replay and the picture); a reconstruction twice that. */
const REPLAY_TIMEOUT_MS = 30_000;
const NAVIGATION_TIMEOUT_MS = 30_000;
const RECONSTRUCTED_VIEWPORT = { width: 1280, height: 800 } as const;

/**
 * Whether an error is the browser's rather than the page's: the pool closed (the worker stops), the
 * browser or its context gone. The attempt fails and is retried; a page's own failure is an answer.
 */
function isBrowserFailure(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /pool is closed|has been closed|has disconnected|target crashed/i.test(message);
}

/** A recorded address shown as origin and path (a prototype's query can carry anything). */
function shownAddress(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}`;
  } catch {
    return null;
  }
}

export function createFindingScreenshotActivities(deps: FindingScreenshotDependencies) {
  const { db, pool, urlPolicy } = deps;

  async function replay(
    sessionId: string,
    finding: FindingToPicture,
  ): Promise<FindingScreenshotRecord | null> {
    const events = await momentEvents((query) => asSystem(db, query), sessionId, finding.moment);
    if (!events) return null;
    const request = { events, at: finding.moment.getTime(), selector: finding.selector };
    try {
      const shot = await pool.withPage(
        { viewport: momentViewport(request), timeoutMs: REPLAY_TIMEOUT_MS },
        (page) => replayMoment(page, request),
      );
      const pageUrl = shownAddress(shot.href);
      return {
        source: 'replay',
        png: shot.png,
        width: shot.width,
        height: shot.height,
        pageUrl,
        outlined: shot.outlined,
        altText: screenshotAltText({
          ...finding,
          findingTitle: finding.title,
          source: 'replay',
          pageUrl,
          outlined: shot.outlined,
        }),
      };
    } catch (error) {
      // The browser itself failing is the attempt's failure (retried); a recording this replayer
      // cannot play to the moment is pictured as a reconstruction instead.
      if (isBrowserFailure(error)) throw error;
      return null;
    }
  }

  /** One fresh load of the prototype, each finding's element outlined in turn. */
  async function reconstruct(
    prototypeUrl: string,
    findings: readonly FindingToPicture[],
  ): Promise<Map<string, FindingScreenshotRecord>> {
    const gapOfAll = (gap: 'prototype_blocked' | 'prototype_failed') =>
      new Map(findings.map((finding) => [finding.noteId, { source: 'none', gap } as const]));
    try {
      await assertAuditableUrl(prototypeUrl, urlPolicy);
    } catch (error) {
      if (error instanceof BlockedUrlError) return gapOfAll('prototype_blocked');
      throw error;
    }
    try {
      return await pool.withPage(
        { viewport: RECONSTRUCTED_VIEWPORT, timeoutMs: NAVIGATION_TIMEOUT_MS + findings.length * 5_000 },
        async (page, egress) => {
          await loadPage(page, prototypeUrl, { egress, navigationTimeoutMs: NAVIGATION_TIMEOUT_MS });
          const pageUrl = shownAddress(page.url());
          const pictures = new Map<string, FindingScreenshotRecord>();
          for (const finding of findings) {
            Context.current().heartbeat(finding.noteId);
            const outlined = finding.selector ? await outline(page, finding.selector, true) : false;
            const png = await page.screenshot({ type: 'png', animations: 'disabled' });
            if (outlined) await outline(page, finding.selector!, false);
            pictures.set(finding.noteId, {
              source: 'reconstructed',
              png,
              ...RECONSTRUCTED_VIEWPORT,
              pageUrl,
              outlined,
              altText: screenshotAltText({
                ...finding,
                findingTitle: finding.title,
                source: 'reconstructed',
                pageUrl,
                outlined,
              }),
            });
          }
          return pictures;
        },
      );
    } catch (error) {
      if (error instanceof BlockedUrlError) return gapOfAll('prototype_blocked');
      if (isBrowserFailure(error)) throw error;
      return gapOfAll('prototype_failed');
    }
  }

  return {
    /**
     * Pictures every finding of the session's tester report that has none yet (a retry goes on
     * where the last attempt stopped); each is stored as soon as it is made.
     */
    async captureFindingScreenshots(input: FindingScreenshotsInput): Promise<FindingScreenshotsOutput> {
      const session = await asSystem(db, (tx) => findingsToPicture(tx, input.sessionId));
      // Asked for while Agent 3 still writes the report: tried again until it exists.
      if (!session)
        throw ApplicationFailure.retryable('The tester report is not written yet', 'ReportNotReady');
      const counts = { replayed: 0, reconstructed: 0, missing: 0 };
      const save = (finding: FindingToPicture, record: FindingScreenshotRecord) =>
        asSystem(db, (tx) =>
          saveFindingScreenshot(
            tx,
            { sessionId: input.sessionId, noteId: finding.noteId, moment: finding.moment },
            record,
          ),
        );
      const unrecorded: FindingToPicture[] = [];
      for (const finding of session.findings) {
        Context.current().heartbeat(finding.noteId);
        const record = await replay(input.sessionId, finding);
        if (!record) unrecorded.push(finding);
        else {
          await save(finding, record);
          counts.replayed++;
        }
      }
      if (unrecorded.length === 0) return counts;
      Context.current().heartbeat('reconstructing');
      const pictures = await reconstruct(session.prototypeUrl, unrecorded);
      for (const finding of unrecorded) {
        const record = pictures.get(finding.noteId)!;
        await save(finding, record);
        if (record.source === 'none') counts.missing++;
        else counts.reconstructed++;
      }
      return counts;
    },
  };
}

/** Outlines (or clears) the element with the audit kit every pool page carries. */
async function outline(page: Page, selector: string, on: boolean): Promise<boolean> {
  try {
    return await page.evaluate<boolean>(`window.__auditKit.outline(${JSON.stringify(selector)}, ${on})`);
  } catch {
    return false; // a selector this page's engine does not take
  }
}
