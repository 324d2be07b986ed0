import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Consistency, RuleResult, Scores } from './scoring.ts';

/** A published tool's ACT implementation report, as W3C's implementations table reads it. */
export interface PublishedTool {
  readonly name: string;
  readonly version: string;
  /** Approved rules it implements consistently. */
  readonly consistentRules: number;
  /** By rule id: complete, partial, or null where it is inconsistent or untested. */
  readonly consistency: ReadonlyMap<string, string | null>;
}

interface ImplementationReport {
  name: string;
  version: string;
  approvedRules: { complete: number };
  actRuleMapping?: { ruleId: string; ruleApproved?: boolean; consistency: string | null }[];
}

/** The published reports under `<dir>/implementations`, most consistent rules first. */
export async function publishedTools(dir: string): Promise<PublishedTool[]> {
  const folder = join(dir, 'implementations');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
  const tools = await Promise.all(
    files.map(async (file) => {
      const report = JSON.parse(await readFile(join(folder, file), 'utf8')) as ImplementationReport;
      return {
        name: report.name,
        version: report.version,
        consistentRules: report.approvedRules.complete,
        consistency: new Map(
          (report.actRuleMapping ?? [])
            .filter((mapping) => mapping.ruleApproved !== false)
            .map((mapping) => [mapping.ruleId, mapping.consistency]),
        ),
      };
    }),
  );
  return tools.sort((a, b) => b.consistentRules - a.consistentRules || a.name.localeCompare(b.name));
}

const MARK: Record<Consistency, string> = {
  consistent: 'consistent',
  'partially consistent': 'partial',
  inconsistent: 'inconsistent',
  untested: 'untested',
};
const publishedMark = (value: string | null | undefined) =>
  value === 'complete' ? 'consistent' : value === 'partial' ? 'partial' : '-';

const totalsOf = (scores: Scores) =>
  `${scores.consistentRules} of ${scores.rules.length} (${scores.consistentRulesByCriteria} judged by criteria alone); ${scores.correct} of ${scores.scoredCases} cases right`;

/**
 * The per-rule table in Markdown: each approved rule, the instant audit's and plain axe's consistency
 * and right cases in this run, then the published tools' consistency; a closing row of totals.
 */
export function ruleTable(audit: Scores, axe: Scores, published: readonly PublishedTool[]): string {
  const axeOf = new Map(axe.rules.map((rule) => [rule.rule.ruleId, rule]));
  const cell = (result: RuleResult | undefined) =>
    result ? `${MARK[result.consistency]} (${result.correct}/${result.cases.length})` : '-';
  const header = [
    'rule',
    'judged by',
    'instant audit',
    'plain axe (this run)',
    ...published.map((tool) => `${tool.name} ${tool.version}`),
  ];
  const rows = audit.rules.map((result) => [
    `${result.rule.ruleId} ${result.rule.ruleName.replaceAll('|', '\\|')}`,
    result.rule.judgedBy.join(', ') + (result.rule.conformance.length ? '' : ' (no criterion required)'),
    cell(result),
    cell(axeOf.get(result.rule.ruleId)),
    ...published.map((tool) => publishedMark(tool.consistency.get(result.rule.ruleId))),
  ]);
  const totals = [
    'consistent rules',
    '',
    totalsOf(audit),
    totalsOf(axe),
    ...published.map((tool) => String(tool.consistentRules)),
  ];
  return [header, header.map(() => '---'), ...rows, totals].map((row) => `| ${row.join(' | ')} |`).join('\n');
}
