import type { Db } from '../../../db/connection.ts';
import { asUser } from '../../../db/doors.ts';
import { momentEvents } from '../../../db/repositories/finding-screenshots.ts';
import { findReport } from '../../../db/repositories/reports.ts';
import type { SessionPrincipal } from '../../../commands/principal.ts';
import type { ReportFinding, SessionReportContent } from '../../../lib/analysis/session-report.ts';

/** A replay shows this long before a finding's moment and after it. */
export const REPLAY_MARGIN_MS = 5_000;

export interface MomentReplay {
  readonly finding: ReportFinding;
  /** The events from a full snapshot through the end of the window; null: no recording covers it. */
  readonly events: readonly unknown[] | null;
  /** The window shown (ms since the epoch): from a few seconds before the moment to a few after. */
  readonly from: number;
  readonly at: number;
  readonly to: number;
}

/**
 * A finding of a tester report with the recording around its moment, as row-level security lets
 * the person see them (the recording: `app.can_watch_session`); undefined when the report or the
 * finding is not theirs to see.
 */
export function loadMomentReplay(
  db: Db,
  principal: SessionPrincipal,
  reportId: string,
  findingId: string,
): Promise<MomentReplay | undefined> {
  return asUser(db, principal.claims, async (tx) => {
    const report = await findReport(tx, reportId);
    const content = report?.content as unknown as SessionReportContent | undefined;
    const finding = content?.findings.find((candidate) => candidate.findingId === findingId);
    if (!report || !finding) return undefined;
    const at = Date.parse(finding.timestamp);
    const to = at + REPLAY_MARGIN_MS;
    const events = await momentEvents(tx, report.session_id, new Date(to));
    const start = (events?.[0] as { timestamp?: number } | undefined)?.timestamp ?? at;
    return { finding, events, at, from: Math.max(start, at - REPLAY_MARGIN_MS), to };
  });
}
