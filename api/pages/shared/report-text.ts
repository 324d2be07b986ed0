import { WCAG_CATALOG } from '../../../lib/analysis/wcag-catalog.ts';
import type { ReportWcag } from '../../../lib/analysis/session-report.ts';

// How findings and reports are worded on every page that shows them: the reports, the review of a
// session's findings, and the study page's Study report section.

export const SEVERITY_TEXT: Readonly<Record<string, string>> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

/** A criterion as people read it: number, name and level. */
export function criterionText(criterion: string | null, level: string | null): string {
  if (!criterion) return 'No WCAG criterion';
  const name = WCAG_CATALOG.get(criterion)?.name;
  return `${criterion}${name ? ` ${name}` : ''}${level ? `, level ${level}` : ''}`;
}

export const wcagText = (wcag: Pick<ReportWcag, 'criterion' | 'level'> | null) =>
  criterionText(wcag?.criterion ?? null, wcag?.level ?? null);

/** What a study without its report yet waits for, by the status of its latest job. */
export function studyReportWaiting(status: string | null | undefined, error: string | null): string {
  if (status === 'queued') return 'The study report is being written. Reload this page in a minute.';
  if (status === 'failed') return `The study report could not be written${error ? `: ${error}` : ''}.`;
  return 'The study report is written once the sessions the study needs are confirmed and their reports are done.';
}
