// Instant audits with the warm pool against pa11y on the same pages and the same Chromium, in one
// run: p50 per page for both, and, per page, every WCAG criterion pa11y reports as an error that
// the audit does not (`missedPa11yCriteria`, "page: criterion"; empty is parity).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import puppeteer from 'puppeteer-core';
import { loadConfig } from '../../config/index.ts';
import { acquireAuditHarness, releaseAuditHarness } from '../audits/harness.ts';
import { createBusiness } from '../support/factories.ts';
import { sessionToken } from '../support/tokens.ts';
import { median, percentile, round } from './stats.ts';

interface Pa11yIssue {
  readonly code: string;
  readonly type: string;
}
type Pa11y = (url: string, options: Record<string, unknown>) => Promise<{ issues: Pa11yIssue[] }>;
// pa11y ships CommonJS without types.
const pa11y = createRequire(import.meta.url)('pa11y') as Pa11y;

const PAGES = [
  'clean.html',
  'keyboard-trap.html',
  'no-skip-link.html',
  'low-contrast.html',
  'unlabeled-input.html',
  'images.html',
  'headings.html',
  'form-error.html',
  'broken-anchor.html',
];
const ROUNDS = 5;

interface InstantResult {
  readonly topIssues: { wcagCriteria: string[] }[];
  readonly issueCounts: Record<string, number>;
}

function add(sets: Map<string, Set<string>>, page: string, criterion: string) {
  sets.set(page, (sets.get(page) ?? new Set()).add(criterion));
}

/** pa11y's HTML_CodeSniffer codes name the criterion: ...Guideline1_4.1_4_3.G18 is 1.4.3. */
const criterionOf = (code: string) => /Guideline\d_\d+\.(\d+)_(\d+)_(\d+)/.exec(code)?.slice(1).join('.');

export async function run() {
  const config = loadConfig();
  const harness = await acquireAuditHarness();
  const browser = await puppeteer.launch({
    executablePath: config.audits.chromiumPath,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
  const ours: number[] = [];
  const theirs: number[] = [];
  // Per page, the WCAG criteria pa11y reports as errors and the audit does not, over every round.
  const missed = new Map<string, Set<string>>();
  const pa11yCriteria = new Map<string, Set<string>>();
  try {
    const token = await sessionToken((await createBusiness('pro')).claims);
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      for (const page of PAGES) {
        const url = `${harness.fixtures.url}/${page}`;
        let t0 = performance.now();
        const response = await harness.api.request('POST', '/api/audits/instant', { token, body: { url } });
        ours.push(performance.now() - t0);
        assert.equal(response.status, 200, response.text);
        t0 = performance.now();
        const result = await pa11y(url, { browser, standard: 'WCAG2AA', timeout: 30_000 });
        theirs.push(performance.now() - t0);
        const data = response.body.data as InstantResult;
        const listed = data.topIssues.length;
        const total = Object.values(data.issueCounts).reduce((sum, n) => sum + n, 0);
        assert.equal(listed, total, `${page}: topIssues is cut short, parity cannot be judged`);
        const found = new Set(data.topIssues.flatMap((issue) => issue.wcagCriteria));
        const expected = result.issues
          .filter((issue) => issue.type === 'error')
          .flatMap((issue) => criterionOf(issue.code) ?? []);
        for (const criterion of expected) {
          add(pa11yCriteria, page, criterion);
          if (!found.has(criterion)) add(missed, page, criterion);
        }
      }
    }
  } finally {
    await browser.close();
    await releaseAuditHarness();
  }
  const missedPa11yCriteria = [...missed].flatMap(([page, criteria]) =>
    [...criteria].sort().map((criterion) => `${page}: ${criterion}`),
  );
  for (const line of missedPa11yCriteria) console.log(`[bench] pa11y reports, the audit misses: ${line}`);
  const p50Ms = median(ours);
  const pa11yP50Ms = median(theirs);
  return {
    figures: {
      p50Ms: round(p50Ms),
      p95Ms: round(percentile(ours, 95)),
      pa11yP50Ms: round(pa11yP50Ms),
      pa11yP95Ms: round(percentile(theirs, 95)),
      speedupVsPa11y: round(pa11yP50Ms / p50Ms, 2),
      pa11yCriteria: [...pa11yCriteria.values()].reduce((sum, criteria) => sum + criteria.size, 0),
      missedPa11yCriteria,
    },
    runs: ROUNDS,
  };
}
