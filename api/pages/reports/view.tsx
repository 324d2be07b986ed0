import type { z } from 'zod';
import type { aggregateStatusResponse } from '../../reports/aggregate.schema.ts';
import { TASK_OUTCOME_WORDS, type renderReport } from '../../reports/report-rendering.ts';
import { duration } from '../../../lib/duration-text.ts';
import { momentPath, reportScreenshotsPath, studyPath } from '../paths.ts';
import { SCREENSHOT_PENDING_WORDS } from '../../../lib/finding-screenshots.ts';
import { CsrfField, day, dayAndTime, Layout, type Viewer } from '../shared/layout.tsx';
import { PrototypeAudit, type PrototypeAuditProps } from '../shared/prototype-audit.tsx';
import { SEVERITY_TEXT, studyReportWaiting, wcagText } from '../shared/report-text.ts';
import { TaskSplits } from '../shared/task-results.tsx';
import { MIN_GROUP_TESTERS } from '../../../lib/analysis/task-results.ts';
import { taskName } from '../../../lib/analysis/task-name.ts';

export type RenderedReport = ReturnType<typeof renderReport>;

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
function Recommendations({ texts }: { texts: readonly string[] }) {
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

type RenderedFinding = RenderedReport['report']['findings'][number];

/** The replay of a finding's moment, framed: a page of its own with the player (pages/moments). */
function FindingReplay({ sessionId, finding }: { sessionId: string; finding: RenderedFinding }) {
  return (
    <iframe
      class="moment-player"
      src={momentPath(sessionId, finding.findingId)}
      title={`Replay of the moment: ${finding.title}`}
      loading="lazy"
    />
  );
}

/** The picture of a finding's moment, or why there is none. */
function FindingMoment({ finding }: { finding: RenderedFinding }) {
  if (!finding.screenshots) return null;
  const [shot] = finding.screenshots;
  if (!shot) {
    const note =
      finding.screenshotNote === SCREENSHOT_PENDING_WORDS
        ? 'No picture of this moment yet.'
        : finding.screenshotNote;
    return <p class="moment-note">{note}</p>;
  }
  return (
    <figure class="moment">
      <img src={shot.url} alt={shot.alt} width={shot.width} height={shot.height} />
      <figcaption>
        {shot.source === 'replay'
          ? `The moment replayed from the session's screen recording${shot.outlined ? ', the element outlined in red' : ''}.`
          : `Reconstructed: the prototype page as it loads now, not the tester's screen (no screen recording covers this moment)${shot.outlined ? '; the element outlined in red' : ''}.`}
      </figcaption>
    </figure>
  );
}

/** While some finding has no picture yet: the button that has them made. */
function MakePictures({ csrf, rendered }: { csrf: string; rendered: RenderedReport }) {
  const waiting = rendered.report.findings.filter(
    (finding) => finding.screenshotNote === SCREENSHOT_PENDING_WORDS,
  ).length;
  if (waiting === 0) return null;
  return (
    <form method="post" action={reportScreenshotsPath(rendered.reportId)} class="panel">
      <CsrfField token={csrf} />
      <p>
        {`${waiting} finding${waiting === 1 ? ' has' : 's have'} no picture of ${waiting === 1 ? 'its' : 'their'} moment yet. Pictures are made in the background from the session's screen recording (or, without one, from the prototype page); reload this page in a minute to see them.`}
      </p>
      <button type="submit">Make the pictures</button>
    </form>
  );
}

export interface ReportPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  readonly studyTitle: string;
  readonly rendered: RenderedReport;
  /** Whether the session has a screen recording the person may watch: each finding is replayed. */
  readonly recorded?: boolean;
}

/** `/reports/:id`: a tester report (Agent 3) as its tester and the study's organization read it. */
export function ReportPage({ csrf, viewer, studyTitle, rendered, recorded = false }: ReportPageProps) {
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
      <ReportTasks rendered={rendered} />
      <h2 id="findings">Findings</h2>
      <MakePictures csrf={csrf} rendered={rendered} />
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
            {recorded ? <FindingReplay sessionId={report.sessionId} finding={finding} /> : null}
            <FindingMoment finding={finding} />
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

/** The tester report's tasks: how each attempt went, and links to the findings made in it. */
function ReportTasks({ rendered: { report } }: { rendered: RenderedReport }) {
  if (!report.tasks.length) return null;
  // Linked by the heading each finding has below: its position and title.
  const heading = new Map(
    report.findings.map((finding, index) => [finding.findingId, `${index + 1}. ${finding.title}`]),
  );
  return (
    <>
      <h2>Tasks</h2>
      <table>
        <caption class="visually-hidden">Each study task: how the attempt went and its findings</caption>
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Outcome</th>
            <th scope="col">Time on task</th>
            <th scope="col">Ease</th>
            <th scope="col">Findings</th>
          </tr>
        </thead>
        <tbody>
          {report.tasks.map((task) => (
            <tr key={task.order}>
              <th scope="row">{taskName(task)}</th>
              <td>{TASK_OUTCOME_WORDS[task.outcome]}</td>
              <td>{task.timeOnTaskSeconds === null ? 'none' : duration(task.timeOnTaskSeconds * 1000)}</td>
              <td>{task.ease === null ? 'not rated' : `${task.ease} of 7`}</td>
              <td>
                {task.findingIds.length
                  ? task.findingIds.map((id, index) => (
                      <>
                        {index ? ', ' : ''}
                        <a href={`#finding-${id}`}>{heading.get(id) ?? id}</a>
                      </>
                    ))
                  : 'None'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export type StudyReport = NonNullable<z.output<typeof aggregateStatusResponse>['report']>;
type Groups = StudyReport['stratification']['device'];

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
  /** The study's prototype and its audit, shown beside the testers' findings. */
  readonly prototype: PrototypeAuditProps;
}

/** `/dashboard/jobs/:id/report`: the study report (Agent 4) as the study's organization reads it. */
export function StudyReportPage({
  csrf,
  viewer,
  studyId,
  studyTitle,
  report,
  prototype,
}: StudyReportPageProps) {
  const titles = new Map(report.topFindings.map((finding) => [finding.findingId, finding.title]));
  // A barrier's task by its order (the task sections list their barriers): titles may repeat.
  const taskOf = new Map(
    report.tasks.flatMap((task) =>
      task.barriers.map((barrier) => [barrier.findingId, taskName(task)] as const),
    ),
  );
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
                <td>{taskOf.get(finding.findingId) ?? finding.affectedFlow}</td>
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
      {report.tasks.length ? (
        <>
          <h2>Tasks by kind of tester</h2>
          <p>
            {`When the report was written: each task's completion, time on task and ease, by variant and by kind of tester, and the barriers testers met in it.`}
          </p>
          {report.tasks.map((task) => (
            <div key={task.order}>
              <TaskSplits task={task} minimumGroupTesters={MIN_GROUP_TESTERS} />
              {task.barriers.length ? (
                <ul aria-label={`Barriers in task ${task.order}`}>
                  {task.barriers.map((barrier) => (
                    <li key={barrier.findingId}>
                      {`${barrier.title} (${SEVERITY_TEXT[barrier.severity] ?? barrier.severity}): ${scopeText(barrier)}, ${barrier.affectedSessionCount} session${barrier.affectedSessionCount === 1 ? '' : 's'}`}
                    </li>
                  ))}
                </ul>
              ) : (
                <p>No confirmed barrier in this task.</p>
              )}
            </div>
          ))}
        </>
      ) : null}
      <h2>The prototype's audit beside the testers</h2>
      <PrototypeAudit {...prototype} />
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

type TaskBarrier = StudyReport['tasks'][number]['barriers'][number];

function scopeText(barrier: TaskBarrier): string {
  if (barrier.scope === 'widespread') return 'widespread in this task';
  if (barrier.scope === 'profile_specific' && barrier.profile)
    return `met mostly by testers with ${barrier.profile.dimension} ${barrier.profile.value}`;
  return 'met by few testers';
}

/** `/dashboard/jobs/:id/report` before the study report exists: what it waits for. */
export function StudyReportWaitingPage({
  csrf,
  viewer,
  studyId,
  studyTitle,
  status,
  error,
}: {
  csrf: string;
  viewer: Viewer;
  studyId: string;
  studyTitle: string;
  status: string | null | undefined;
  error: string | null;
}) {
  return (
    <Layout title={`Study report: ${studyTitle}`} viewer={viewer} csrf={csrf}>
      <p>{studyReportWaiting(status, error)}</p>
      <p>
        <a href={studyPath(studyId)}>Back to the study</a>
      </p>
    </Layout>
  );
}
