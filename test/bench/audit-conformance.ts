// The conformance benchmark (issue 17): pages written in this project, each a pass or a fail of
// one rule judged by the WCAG criteria it names (audit-conformance/cases.ts), run through the
// instant audit and through plain axe-core on the same Chromium in one run. A tool flags a page
// when it reports an issue under one of its criteria. Figures: correct (a failed page flagged, a
// passed page not), falsePositives (passed pages flagged), detected (failed pages flagged), each
// for the audit and for axe, and the pages behind every miss and false alarm.
//
// Plain axe is run the way a careful integrator runs it: axe-core injected into the page and into
// every frame (with cross-origin messaging allowed, so its frame support reaches them), after the
// page's load event, `axe.run(document)` with axe's defaults, criteria from the violations' tags.
import { axeVerdict, instantVerdict, withAuditAndAxe, type Verdict } from './support/verdicts.ts';
import { CASES, type ConformanceCase } from './audit-conformance/cases.ts';

interface Tally {
  correct: number;
  falsePositives: number;
  detected: number;
  missed: string[];
  falseAlarms: string[];
  errors: string[];
}

export async function run() {
  const audit = emptyTally();
  const axe = emptyTally();
  await withAuditAndAxe(async ({ harness, client, browser }) => {
    for (const conformance of CASES) {
      const url = `${harness.fixtures.url}/conformance/${conformance.page}`;
      tally(audit, conformance, await instantVerdict(client, url));
      tally(axe, conformance, await axeVerdict(browser, url));
    }
  });
  for (const [tool, t] of [
    ['audit', audit],
    ['axe', axe],
  ] as const) {
    for (const line of t.missed) console.log(`[bench] ${tool} misses: ${line}`);
    for (const line of t.falseAlarms) console.log(`[bench] ${tool} false alarm: ${line}`);
    for (const line of t.errors) console.log(`[bench] ${tool} could not audit: ${line}`);
  }
  const failed = CASES.filter((c) => c.expected === 'failed').length;
  const verdicts = {
    moreCorrectThanAxe: audit.correct > axe.correct,
    fewerFalsePositivesThanAxe: audit.falsePositives < axe.falsePositives,
  };
  return {
    figures: {
      pages: CASES.length,
      failedPages: failed,
      passedPages: CASES.length - failed,
      correct: audit.correct,
      axeCorrect: axe.correct,
      falsePositives: audit.falsePositives,
      axeFalsePositives: axe.falsePositives,
      detected: audit.detected,
      axeDetected: axe.detected,
      missed: audit.missed,
      axeMissed: axe.missed,
      falseAlarms: audit.falseAlarms,
      axeFalseAlarms: axe.falseAlarms,
      couldNotAudit: audit.errors,
      axeCouldNotAudit: axe.errors,
      ...verdicts,
      meetsTargets: Object.values(verdicts).every(Boolean),
    },
    runs: 1,
  };
}

function emptyTally(): Tally {
  return { correct: 0, falsePositives: 0, detected: 0, missed: [], falseAlarms: [], errors: [] };
}

function tally(t: Tally, conformance: ConformanceCase, verdict: Verdict): void {
  const name = `${conformance.page} (${conformance.criteria.join(', ')}: ${conformance.what})`;
  if ('error' in verdict) {
    t.errors.push(`${name}: ${verdict.error}`);
    if (conformance.expected === 'failed') t.missed.push(name);
    return;
  }
  const flagged = verdict.issues.some(({ criteria }) =>
    criteria.some((criterion) => conformance.criteria.includes(criterion)),
  );
  if (conformance.expected === 'failed') {
    if (flagged) t.detected++;
    else t.missed.push(name);
  } else if (flagged) {
    t.falsePositives++;
    t.falseAlarms.push(name);
  }
  if (flagged === (conformance.expected === 'failed')) t.correct++;
}
