import type { z } from 'zod';
import type { aggregateStatusResponse } from '../reports/aggregate.schema.ts';
import { day, Layout, type Viewer } from './layout.tsx';
import { Recommendations, SEVERITY_TEXT, wcagText } from './report-page.tsx';
import { studyPath } from './study-page.tsx';

export type StudyReport = NonNullable<z.output<typeof aggregateStatusResponse>['report']>;
type Groups = StudyReport['stratification']['device'];

export const studyReportPath = (studyId: string) => `${studyPath(studyId)}/report`;

/** What a study without its report yet waits for, by the status of its latest job. */
export function studyReportWaiting(status: string | null | undefined, error: string | null): string {
  if (status === 'queued') return 'The study report is being written. Reload this page in a minute.';
  if (status === 'failed') return `The study report could not be written${error ? `: ${error}` : ''}.`;
  return 'The study report is written once the sessions the study needs are confirmed and their reports are done.';
}

const DIMENSIONS: readonly [keyof StudyReport['stratification'], string][] = [
  ['device', 'Device'],
  ['accessNeeds', 'Access needs'],
  ['country', 'Country'],
  ['ageBand', 'Age band'],
];

function GroupTable({
  caption,
  groups,
  titles,
}: {
  caption: string;
  groups: Groups;
  titles: ReadonlyMap<string, string>;
}) {
  const entries = Object.entries(groups);
  if (!entries.length) return null;
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Group</th>
          <th scope="col">Sessions</th>
          <th scope="col">Average score</th>
          <th scope="col">Barriers met</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([value, group]) => (
          <tr key={value}>
            <th scope="row">{value}</th>
            <td>{group.sessionCount}</td>
            <td>{group.avgScore}</td>
            <td>{group.barriers.map((id) => titles.get(id) ?? id).join('; ') || 'None'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface StudyReportPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly studyId: string;
  readonly studyTitle: string;
  readonly report: StudyReport;
}

/** `/dashboard/jobs/:id/report`: the study report (Agent 4) as the study's organization reads it. */
export function StudyReportPage({ csrf, viewer, studyId, studyTitle, report }: StudyReportPageProps) {
  const titles = new Map(report.topFindings.map((finding) => [finding.findingId, finding.title]));
  const variants = Object.entries(report.variantComparison);
  return (
    <Layout title={`Study report: ${studyTitle}`} viewer={viewer} csrf={csrf}>
      <p>
        <a href={studyPath(studyId)}>Back to the study</a>
      </p>
      <dl class="facts">
        <dt>Study score</dt>
        <dd>{`${report.studyScore} of 100`}</dd>
        <dt>Sessions</dt>
        <dd>{report.sessionCount}</dd>
        <dt>Written</dt>
        <dd>{day(new Date(report.generatedAt))}</dd>
      </dl>
      <h2>Summary</h2>
      <p>{report.summary}</p>
      <h2>Top barriers</h2>
      {report.topFindings.length ? (
        <table>
          <caption class="visually-hidden">The barriers testers met, the most severe first</caption>
          <thead>
            <tr>
              <th scope="col">Barrier</th>
              <th scope="col">Severity</th>
              <th scope="col">WCAG criterion</th>
              <th scope="col">Where</th>
              <th scope="col">Sessions</th>
            </tr>
          </thead>
          <tbody>
            {report.topFindings.map((finding) => (
              <tr key={finding.findingId}>
                <th scope="row">{finding.title}</th>
                <td>{SEVERITY_TEXT[finding.severity] ?? finding.severity}</td>
                <td>{wcagText(finding.wcag as Parameters<typeof wcagText>[0])}</td>
                <td>{finding.affectedFlow}</td>
                <td>{finding.affectedSessionCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No confirmed barriers in this study's sessions.</p>
      )}
      <h2>Widespread and profile-specific barriers</h2>
      {report.widespreadBarriers.length || report.profileSpecificBarriers.length ? (
        <ul>
          {report.widespreadBarriers.map((barrier) => (
            <li key={`w-${barrier.findingId}`}>
              {`${titles.get(barrier.findingId) ?? barrier.findingId}: met in ${barrier.affectedSessionCount} sessions (${Math.round(barrier.share * 100)} % of them), by testers of every profile`}
            </li>
          ))}
          {report.profileSpecificBarriers.map((barrier) => (
            <li key={`p-${barrier.findingId}-${barrier.dimension}-${barrier.value}`}>
              {`${titles.get(barrier.findingId) ?? barrier.findingId}: met by testers with ${barrier.dimension} ${barrier.value} (${barrier.affectedSessionCount} of their ${barrier.groupSessionCount} sessions)`}
            </li>
          ))}
        </ul>
      ) : (
        <p>No barrier was met widely or by one group of testers in particular.</p>
      )}
      {variants.length ? (
        <>
          <h2>Variants compared</h2>
          <table>
            <caption class="visually-hidden">Average score per variant</caption>
            <thead>
              <tr>
                <th scope="col">Variant</th>
                <th scope="col">Sessions</th>
                <th scope="col">Average score</th>
              </tr>
            </thead>
            <tbody>
              {variants.map(([label, variant]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{variant.sessionCount}</td>
                  <td>{variant.avgScore}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      <h2>By tester profile</h2>
      {DIMENSIONS.map(([dimension, caption]) => (
        <GroupTable
          key={dimension}
          caption={caption}
          groups={report.stratification[dimension]}
          titles={titles}
        />
      ))}
      <Recommendations texts={report.recommendations} />
    </Layout>
  );
}
