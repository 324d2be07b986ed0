// The W3C ACT Rules benchmark (issue 35): every approved HTML test case (../shared/act, or
// ACT_RULES_DIR), served on loopback as w3.org serves it, audited through the instant audit
// (POST /api/audits/instant) and by plain axe-core on the same Chromium in the same run, and scored
// the W3C way: a failed case must be reported under one of its rule's WCAG criteria, a passed or
// inapplicable one must not be (test/bench/act/scoring.ts). Writes the instant audit's and axe's
// EARL implementation reports (.data/bench/act-earl.json, act-axe-earl.json) and the per-rule
// table beside the published tools' figures (.data/bench/act-rules.md).
//
// Figures: actCorrect (of the cases of rules with a WCAG criterion, 488), actConsistentRules (of
// the 37 approved rules, rated as W3C's table rates a tool: by its checks), the same judged by
// criteria alone (actConsistentRulesByCriteria), axe's three, and the cases each got wrong.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../scripts/lib/tools.ts';
import { HARNESS_SLOTS } from '../audits/harness.ts';
import { actRulesDir, loadActRules, type ActCase } from './act/catalogue.ts';
import { earlReport } from './act/earl.ts';
import { isCorrect, score, type Scores } from './act/scoring.ts';
import { publishedTools, ruleTable } from './act/table.ts';
import { axeVerdict, instantVerdict, withAuditAndAxe, type Verdict } from './support/verdicts.ts';

const TARGETS = { actCorrect: 475, actConsistentRules: 33 } as const;
const OUT = join(PROJECT_ROOT, '.data', 'bench');

const require = createRequire(import.meta.url);
const { version } = require('../../package.json') as { version: string };
const axeVersion = (require('axe-core/package.json') as { version: string }).version;

export async function run() {
  const dir = actRulesDir();
  const rules = await loadActRules(dir);
  const cases = rules.flatMap((rule) => rule.cases);
  const audited = new Map<string, Verdict>();
  const axed = new Map<string, Verdict>();
  await withAuditAndAxe(async ({ harness, client, browser }) => {
    // As many at once as the harness has instant-audit slots, each case's axe run after its audit.
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < cases.length; index = next++) {
        const actCase = cases[index]!;
        const url = `${harness.fixtures.url}/WAI/${actCase.relativePath}`;
        audited.set(actCase.relativePath, await instantVerdict(client, url));
        axed.set(actCase.relativePath, await axeVerdict(browser, url));
      }
    };
    await Promise.all(Array.from({ length: HARNESS_SLOTS.instant }, worker));
  });
  const audit = score(rules, (actCase) => audited.get(actCase.relativePath)!);
  const axe = score(rules, (actCase) => axed.get(actCase.relativePath)!);

  await mkdir(OUT, { recursive: true });
  const tool = { vendor: 'usability-service', version };
  await writeFile(
    join(OUT, 'act-earl.json'),
    `${JSON.stringify(earlReport({ ...tool, name: 'Instant audit' }, audit.rules), null, 1)}\n`,
  );
  await writeFile(
    join(OUT, 'act-axe-earl.json'),
    `${JSON.stringify(earlReport({ name: 'axe-core', version: axeVersion, vendor: 'Deque Systems' }, axe.rules), null, 1)}\n`,
  );
  await writeFile(join(OUT, 'act-rules.md'), `${ruleTable(audit, axe, await publishedTools(dir))}\n`);

  const figures = {
    cases: cases.length,
    scoredCases: audit.scoredCases,
    rules: rules.length,
    actCorrect: audit.correct,
    actConsistentRules: audit.consistentRules,
    actConsistentRulesByCriteria: audit.consistentRulesByCriteria,
    axeCorrect: axe.correct,
    axeConsistentRules: axe.consistentRules,
    axeConsistentRulesByCriteria: axe.consistentRulesByCriteria,
    actWrong: wrongCases(audit),
    axeWrong: wrongCases(axe),
  };
  const verdicts = {
    actCorrect: audit.correct >= TARGETS.actCorrect,
    actConsistentRules: audit.consistentRules >= TARGETS.actConsistentRules,
  };
  return { figures, runs: 1, targets: TARGETS, meetsTargets: Object.values(verdicts).every(Boolean) };
}

/** Each case a tool got wrong: rule, case, what was expected and what it said. */
function wrongCases(scores: Scores): string[] {
  const name = (actCase: ActCase) => `${actCase.ruleId} ${actCase.testcaseTitle}`;
  return scores.rules.flatMap(({ cases }) =>
    cases
      .filter((result) => !isCorrect(result))
      .map(
        (result) =>
          `${name(result.actCase)}: expected ${result.actCase.expected}, ${result.outcome}${result.error ? ` (${result.error})` : ''}`,
      ),
  );
}
