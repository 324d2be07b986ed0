import type {
  ReportFinding,
  ReportPattern,
  ReportTask,
  SessionReportContent,
} from '../../lib/analysis/session-report.ts';
import type { ReportRow } from '../../db/repositories/reports.ts';
import type { FindingScreenshotRow } from '../../db/repositories/finding-screenshots.ts';
import { SCREENSHOT_GAP_WORDS, SCREENSHOT_PENDING_WORDS } from '../../lib/finding-screenshots.ts';
import { duration } from '../../lib/duration-text.ts';
import type { ReportFormat } from '../../lib/domain.ts';

export interface RenderOptions {
  readonly format: ReportFormat;
  readonly includeScreenshots: boolean;
}

/**
 * A stored report as the caller asked for it. Agent 3 stores the facts once, on confirmation;
 * each format is a rendering of those same facts, so asking for another format later re-renders
 * the stored content and never runs an agent again (the findings cannot change after the gate).
 * Both formats carry the spec's result fields; `narrative` adds the findings told as prose.
 * With `includeScreenshots` (and the session's pictures, which the caller may see, passed in) each
 * finding carries the picture of its moment, or a note saying why it has none (yet).
 */
export function renderReport(
  row: ReportRow,
  { format, includeScreenshots }: RenderOptions,
  screenshots: ReadonlyMap<string, FindingScreenshotRow> = new Map(),
) {
  const content = row.content as unknown as SessionReportContent;
  const overallScore = Number(row.overall_score);
  const findings: (ReportFinding & Partial<FindingPicture>)[] = content.findings.map((finding) =>
    includeScreenshots ? { ...finding, ...screenshotOf(screenshots.get(finding.findingId)) } : finding,
  );
  return {
    reportId: row.id,
    provider: row.provider,
    usedFallback: row.used_fallback,
    report: {
      sessionId: row.session_id,
      generatedAt: row.generated_at.toISOString(),
      overallScore,
      toneProfile: row.tone_profile,
      reportFormat: format,
      findings,
      patterns: content.patterns ?? [],
      tasks: content.tasks ?? [],
      recommendations: content.recommendations,
      emotionalProfile: content.emotionalProfile,
      ...(format === 'narrative' ? { narrative: narrativeOf(content, overallScore) } : {}),
    },
  };
}

export interface FindingPicture {
  readonly screenshots: readonly {
    readonly url: string;
    readonly alt: string;
    readonly width: number;
    readonly height: number;
    readonly source: 'replay' | 'reconstructed';
    readonly pageUrl: string | null;
    readonly outlined: boolean;
    readonly capturedAt: string;
  }[];
  /** Why there is no picture (yet); null with one. */
  readonly screenshotNote: string | null;
}

/** A finding's picture as the report carries it: the PNG inline (one answer holds the whole report). */
export function screenshotOf(row: FindingScreenshotRow | undefined): FindingPicture {
  if (!row) return { screenshots: [], screenshotNote: SCREENSHOT_PENDING_WORDS };
  if (row.source === 'none' || !row.png) {
    return { screenshots: [], screenshotNote: SCREENSHOT_GAP_WORDS[row.gap ?? 'no_browser'] };
  }
  return {
    screenshots: [
      {
        url: `data:image/png;base64,${row.png.toString('base64')}`,
        alt: row.alt_text ?? '',
        width: row.width ?? 0,
        height: row.height ?? 0,
        source: row.source,
        pageUrl: row.page_url,
        outlined: row.outlined,
        capturedAt: row.captured_at.toISOString(),
      },
    ],
    screenshotNote: null,
  };
}

/** The same facts as paragraphs: the score, each finding in time order, what to do, how it felt. */
export function narrativeOf(content: SessionReportContent, overallScore: number): string {
  const count = content.findings.length;
  const opening =
    count === 0
      ? `Overall score ${overallScore} of 100. The tester confirmed no findings in this session.`
      : `Overall score ${overallScore} of 100, from ${count} confirmed finding${count === 1 ? '' : 's'}.`;
  const { avgFrustration, avgConfusion, avgPositive } = content.emotionalProfile;
  return [
    opening,
    ...content.findings.map((finding, index) => findingParagraph(finding, index + 1)),
    ...(content.patterns ?? []).map(patternParagraph),
    ...(content.tasks ?? []).map(taskParagraph),
    ...(content.recommendations.length ? [`What to do next: ${content.recommendations.join(' ')}`] : []),
    `How the session felt: average frustration ${avgFrustration.toFixed(2)}, confusion ` +
      `${avgConfusion.toFixed(2)}, positive expressions ${avgPositive.toFixed(2)}.`,
  ].join('\n\n');
}

function findingParagraph(finding: ReportFinding, position: number): string {
  const reference = finding.wcag ? `, WCAG ${finding.wcag.criterion} Level ${finding.wcag.level}` : '';
  return (
    `${position}. ${finding.title} (severity ${finding.severity}${reference}), at ${finding.timestamp} ` +
    `in ${finding.affectedFlow}. ${finding.description} ${finding.plainEnglish}`
  );
}

/** How a tester's attempt at a task ended, in words (the report's narrative and its page). */
export const TASK_OUTCOME_WORDS: Readonly<Record<ReportTask['outcome'], string>> = {
  completed: 'done',
  abandoned: 'given up',
  unfinished: 'not finished before the session ended',
  not_attempted: 'not attempted',
};

function taskParagraph(task: ReportTask): string {
  const facts = [
    ...(task.timeOnTaskSeconds === null ? [] : [`${duration(task.timeOnTaskSeconds * 1000)} on task`]),
    ...(task.ease === null ? [] : [`ease ${task.ease} of 7`]),
    `${task.findingIds.length} finding${task.findingIds.length === 1 ? '' : 's'}`,
  ];
  return `Task ${task.order}, ${task.title}: ${TASK_OUTCOME_WORDS[task.outcome]} (${facts.join(', ')}).`;
}

function patternParagraph(pattern: ReportPattern): string {
  const reference = pattern.wcag ? ` (WCAG ${pattern.wcag.criterion} Level ${pattern.wcag.level})` : '';
  return `Across tasks${reference}: ${pattern.description}`;
}
