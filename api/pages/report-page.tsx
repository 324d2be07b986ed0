import { WCAG_CATALOG } from '../../lib/analysis/wcag-catalog.ts';
import type { ReportWcag } from '../../lib/analysis/session-report.ts';
import type { renderReport } from '../reports/report-rendering.ts';
import { day, dayAndTime, Layout, type Viewer } from './layout.tsx';

export type RenderedReport = ReturnType<typeof renderReport>;

export const reportPath = (reportId: string) => `/reports/${reportId}`;

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

const TONE_TEXT: Readonly<Record<string, string>> = {
  standard: 'Standard',
  supportive: 'Supportive',
  moderate: 'Moderate',
  restorative: 'Restorative',
};

/** A finding's moment (an ISO timestamp) as people read it; anything else as written. */
function moment(timestamp: string) {
  const at = new Date(timestamp);
  return Number.isNaN(at.getTime()) ? timestamp : dayAndTime(at);
}

/** A report's "What to do next", tester and study reports alike. */
export function Recommendations({ texts }: { texts: readonly string[] }) {
  return (
    <>
      <h2>What to do next</h2>
      {texts.length ? (
        <ul>
          {texts.map((text, index) => (
            <li key={index}>{text}</li>
          ))}
        </ul>
      ) : (
        <p>No recommendations: nothing was confirmed to fix.</p>
      )}
    </>
  );
}

export interface ReportPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly studyTitle: string;
  readonly rendered: RenderedReport;
}

/** `/reports/:id`: a tester report (Agent 3) as its tester and the study's organization read it. */
export function ReportPage({ csrf, viewer, studyTitle, rendered }: ReportPageProps) {
  const { report } = rendered;
  const { avgFrustration, avgConfusion, avgPositive } = report.emotionalProfile;
  return (
    <Layout title={`Session report: ${studyTitle}`} viewer={viewer} csrf={csrf}>
      <dl class="facts">
        <dt>Overall score</dt>
        <dd>{`${report.overallScore} of 100`}</dd>
        <dt>Confirmed findings</dt>
        <dd>{report.findings.length}</dd>
        <dt>Tone</dt>
        <dd>{TONE_TEXT[report.toneProfile] ?? report.toneProfile}</dd>
        <dt>Written</dt>
        <dd>{day(new Date(report.generatedAt))}</dd>
        <dt>Written by</dt>
        <dd>{rendered.usedFallback ? `${rendered.provider} (a fallback provider)` : rendered.provider}</dd>
      </dl>
      <h2>Findings</h2>
      {report.findings.length ? (
        report.findings.map((finding, index) => (
          <section class="finding" aria-labelledby={`finding-${finding.findingId}`} key={finding.findingId}>
            <h3 id={`finding-${finding.findingId}`}>{`${index + 1}. ${finding.title}`}</h3>
            <dl class="facts">
              <dt>Severity</dt>
              <dd>{SEVERITY_TEXT[finding.severity] ?? finding.severity}</dd>
              <dt>WCAG criterion</dt>
              <dd>{wcagText(finding.wcag)}</dd>
              <dt>When</dt>
              <dd>{moment(finding.timestamp)}</dd>
              <dt>Where</dt>
              <dd>{finding.affectedFlow}</dd>
            </dl>
            <p>{finding.description}</p>
            <p>
              <strong>In plain English: </strong>
              {finding.plainEnglish}
            </p>
          </section>
        ))
      ) : (
        <p>The tester confirmed no findings in this session.</p>
      )}
      {report.patterns.length ? (
        <>
          <h2>Patterns across tasks</h2>
          <ul>
            {report.patterns.map((pattern) => (
              <li key={pattern.patternId}>
                {`${pattern.description} (${SEVERITY_TEXT[pattern.severity] ?? pattern.severity}; ${wcagText(pattern.wcag)})`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <Recommendations texts={report.recommendations} />
      <h2>How the session felt</h2>
      <p>Averages of the facial expression scores over the session, from 0 (none) to 1.</p>
      <dl class="facts">
        <dt>Frustration</dt>
        <dd>{avgFrustration.toFixed(2)}</dd>
        <dt>Confusion</dt>
        <dd>{avgConfusion.toFixed(2)}</dd>
        <dt>Positive expressions</dt>
        <dd>{avgPositive.toFixed(2)}</dd>
      </dl>
    </Layout>
  );
}
