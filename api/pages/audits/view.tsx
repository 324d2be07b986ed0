import type { z } from 'zod';
import { issueCountsText } from '../../../lib/audits.ts';
import { instantAuditPath } from '../../audits/audit-view.ts';
import type { auditListItem, instantAuditResponse } from '../../audits/audits.schema.ts';
import { auditsPath, AUDITS_PATH } from '../paths.ts';
import { BarChart } from '../shared/charts.tsx';
import { ErrorSummary, TextField, type FieldErrors } from '../shared/form-fields.tsx';
import { CsrfField, dayAndTime, Layout, type Viewer } from '../shared/layout.tsx';

type ListedAudit = z.infer<typeof auditListItem>;
type InstantAudit = z.infer<typeof instantAuditResponse>;

export const AUDIT_LABELS = { url: 'Address of the page' };

const counts = (issueCounts: ListedAudit['issueCounts']) =>
  issueCounts ? issueCountsText(issueCounts) : 'not yet';

function Result({ audit }: { audit: InstantAudit }) {
  return (
    <section aria-labelledby="result-title">
      <h2 id="result-title">{`Result: ${audit.score} of 100, grade ${audit.grade}`}</h2>
      <p>
        <a href={audit.url}>{audit.url}</a>, audited {dayAndTime(new Date(audit.completedAt))}. Issues:{' '}
        {counts(audit.issueCounts)}.
      </p>
      {audit.issues.length ? (
        <table>
          <caption class="visually-hidden">Every issue of the page, the most severe first</caption>
          <thead>
            <tr>
              <th scope="col">Issue</th>
              <th scope="col">Severity</th>
              <th scope="col">WCAG</th>
              <th scope="col">Element</th>
            </tr>
          </thead>
          <tbody>
            {audit.issues.map((issue) => (
              <tr key={issue.issueId}>
                <th scope="row">{issue.description}</th>
                <td>{issue.severity}</td>
                <td>{issue.wcagCriteria.length ? issue.wcagCriteria.join(', ') : 'best practice'}</td>
                <td>
                  <code>{issue.element}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>No issue found.</p>
      )}
      <p>
        The same result for a pipeline: <a href={`${instantAuditPath(audit.auditId)}?format=sarif`}>SARIF</a>,{' '}
        <a href={`${instantAuditPath(audit.auditId)}?format=junit`}>JUnit XML</a>,{' '}
        <a href={`${instantAuditPath(audit.auditId)}?format=earl`}>EARL</a>.
      </p>
    </section>
  );
}

/** The URL's scores, oldest first: a bar per completed audit, with the table of the same figures. */
function ScoreHistory({ url, history }: { url: string; history: readonly ListedAudit[] }) {
  const scored = history.filter((audit) => audit.score !== null).reverse();
  if (!scored.length) return null;
  return (
    <section aria-labelledby="history-title">
      <h2 id="history-title">Score over time</h2>
      <BarChart
        id="score-history"
        title={`Score of ${url}, audit by audit`}
        summary={`The score of each of the last ${scored.length} audits of the page, oldest first, out of 100.`}
        max={100}
        ticks={[0, 25, 50, 75, 100]}
        tickText={(value) => String(value)}
        labelHeading="Audited"
        valueHeading="Score"
        rows={scored.map((audit) => {
          const at = audit.completedAt ?? audit.requestedAt;
          return {
            label: `${at.slice(0, 10)} ${at.slice(11, 16)} (${audit.kind})`,
            value: audit.score,
            text: `${audit.score} (grade ${audit.grade})`,
          };
        })}
      />
    </section>
  );
}

function RecentAudits({ audits }: { audits: readonly ListedAudit[] }) {
  if (!audits.length) return <p>No audits yet.</p>;
  return (
    <table>
      <caption class="visually-hidden">Your organization's audits, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Page</th>
          <th scope="col">Kind</th>
          <th scope="col">Requested</th>
          <th scope="col">Score</th>
          <th scope="col">Issues</th>
        </tr>
      </thead>
      <tbody>
        {audits.map((audit) => (
          <tr key={audit.auditId}>
            <th scope="row">
              <a href={auditsPath({ url: audit.url })}>{audit.url}</a>
            </th>
            <td>{audit.kind}</td>
            <td>{dayAndTime(new Date(audit.requestedAt))}</td>
            <td>{audit.score === null ? audit.status : `${audit.score} (grade ${audit.grade})`}</td>
            <td>{counts(audit.issueCounts)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface AuditsPageProps {
  readonly csrf: string;
  readonly viewer: Viewer;
  /** The instant audit to show (one just run, or one linked to). */
  readonly shown?: InstantAudit | undefined;
  /** The URL whose scores are charted, with its audits newest first. */
  readonly history?: { readonly url: string; readonly audits: readonly ListedAudit[] } | undefined;
  readonly recent: readonly ListedAudit[];
  readonly values?: Readonly<Record<string, string>>;
  readonly errors?: FieldErrors;
}

/** `/dashboard/audits`: audit a page now, see its result and its score over time, and the audits run. */
export function AuditsPage(props: AuditsPageProps) {
  const { csrf, viewer, shown, history, recent, values = {}, errors = {} } = props;
  return (
    <Layout title="Accessibility audits" viewer={viewer} csrf={csrf}>
      <ErrorSummary errors={errors} labels={AUDIT_LABELS} />
      <form method="post" action={AUDITS_PATH} novalidate>
        <CsrfField token={csrf} />
        <TextField
          name="url"
          type="url"
          label={AUDIT_LABELS.url}
          value={values.url}
          error={errors.url}
          hint="A public http or https address, as https://example.com/checkout. The audit takes up to 10 seconds."
          maxLength={2048}
        />
        <button type="submit">Audit this page</button>
      </form>
      {shown ? <Result audit={shown} /> : null}
      {history ? <ScoreHistory url={history.url} history={history.audits} /> : null}
      <h2>Recent audits</h2>
      <RecentAudits audits={recent} />
    </Layout>
  );
}
