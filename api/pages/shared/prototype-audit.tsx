// The audit of a study's prototype beside the barriers its testers met, as the study page and the
// study report page show it (commands/studies/study-audit.ts reads it; GET /api/jobs/:id/audit
// answers the same).
import type { StudyAudit } from '../../../commands/studies/study-audit.ts';
import type { CriterionComparison, FoundBy } from '../../../lib/analysis/audit-comparison.ts';
import type { PrototypeType, StudyStatus } from '../../../lib/domain.ts';
import { auditsPath } from '../paths.ts';

export interface PrototypeAuditProps {
  readonly audit: StudyAudit | undefined;
  readonly study: {
    readonly status: StudyStatus;
    readonly prototype_type: PrototypeType;
    readonly prototype_url: string;
  };
}

const FOUND_BY_TEXT: Readonly<Record<FoundBy, string>> = {
  both: 'Testers and the audit',
  testers: 'Testers only',
  audit: 'The audit only',
};

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

function Summary({ rows }: { rows: readonly CriterionComparison[] }) {
  const count = (foundBy: FoundBy) => rows.filter((row) => row.foundBy === foundBy).length;
  return (
    <p>
      {`Testers met barriers the audit also found under ${plural(count('both'), 'criterion', 'criteria')}; only people found those under ${plural(count('testers'), 'criterion', 'criteria')}; the audit found issues no tester met under ${plural(count('audit'), 'criterion', 'criteria')}.`}
    </p>
  );
}

function ComparisonTable({ rows }: { rows: readonly CriterionComparison[] }) {
  return (
    <table>
      <caption>Barriers by WCAG criterion: who met them</caption>
      <thead>
        <tr>
          <th scope="col">WCAG criterion</th>
          <th scope="col">Found by</th>
          <th scope="col">Testers' findings</th>
          <th scope="col">Audit's issues</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.criterion}>
            <th scope="row">{`${row.criterion} ${row.name} (level ${row.level})`}</th>
            <td>{FOUND_BY_TEXT[row.foundBy]}</td>
            <td>
              {row.testerFindings
                ? `${plural(row.testerFindings, 'finding')} in ${plural(row.testerSessions, 'session')}`
                : 'none'}
            </td>
            <td>
              {row.auditIssues
                ? `${plural(row.auditIssues, 'issue')} on ${plural(row.auditPages, 'page')}`
                : 'none'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Why a study has no audit: its prototype is not something to audit, or not yet. */
function withoutAudit(study: PrototypeAuditProps['study']): string {
  if (study.prototype_type !== 'url')
    return "A prototype in a design tool is not audited: the audit would see the tool's page, not the product.";
  if (study.status === 'draft') return 'The prototype is audited once the study is paid for and active.';
  return 'The prototype was not audited when the study became active: its address was not a public one the audit could reach (or the study became active before prototypes were audited).';
}

/** The section's content under its heading. */
export function PrototypeAudit({ audit, study }: PrototypeAuditProps) {
  if (!audit) return <p>{withoutAudit(study)}</p>;
  const { job, pagesAudited, result, comparison } = audit;
  const history = <a href={auditsPath({ url: job.url })}>{`The audits of ${job.url} over time`}</a>;
  if (job.status === 'failed')
    return (
      <p>
        {`The audit of ${job.url} failed: ${job.error ?? 'no page could be audited'}. `}
        {history}
      </p>
    );
  if (!comparison || !result)
    return (
      <p>{`The audit of ${job.url} is ${job.status === 'queued' ? 'queued' : `running (${plural(pagesAudited, 'page')} audited so far)`}: its findings appear here beside the testers' once it is complete.`}</p>
    );
  return (
    <>
      <p>
        {`The audit of ${job.url} (${plural(pagesAudited, 'page')}, crawled from it) scored ${result.score} of 100, grade ${result.grade}. `}
        {history}
      </p>
      {comparison.length ? (
        <>
          <Summary rows={comparison} />
          <ComparisonTable rows={comparison} />
        </>
      ) : (
        <p>Neither the testers nor the audit found a barrier under a WCAG criterion.</p>
      )}
    </>
  );
}
