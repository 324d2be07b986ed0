import { chromium, type Browser } from 'playwright-core';
import { criteriaOf } from '../../../activities/audits/axe-check.ts';
import { loadConfig } from '../../../config/index.ts';
import { acquireAuditHarness, releaseAuditHarness, type AuditHarness } from '../../audits/harness.ts';
import { instantClient, type InstantClient } from '../../audits/instant-client.ts';
import { plainAxe } from '../../audits/plain-axe.ts';

export interface AuditAndAxe {
  readonly harness: AuditHarness;
  /** A signed-in business's instant audits, through the API. */
  readonly client: InstantClient;
  /** A Chromium of its own for plain axe, as the audit's. */
  readonly browser: Browser;
}

/**
 * Runs `use` with the audit harness and a browser for plain axe-core (the benchmarks that judge
 * the instant audit beside axe, in one run), and releases both after.
 */
export async function withAuditAndAxe<T>(use: (tools: AuditAndAxe) => Promise<T>): Promise<T> {
  const harness = await acquireAuditHarness();
  try {
    const browser = await chromium.launch({
      executablePath: loadConfig().audits.chromiumPath,
      args: ['--no-sandbox', '--disable-dev-shm-usage'],
    });
    try {
      return await use({ harness, client: await instantClient(harness), browser });
    } finally {
      await browser.close();
    }
  } finally {
    await releaseAuditHarness();
  }
}

/** One issue a tool reported: the check (W3C's "procedure") that found it and its WCAG criteria. */
export interface ReportedIssue {
  readonly procedure: string;
  /** Empty for a best practice. */
  readonly criteria: readonly string[];
}

/** What a tool said of one page: every issue it reported, or why it could not audit the page. */
export type Verdict = { readonly issues: readonly ReportedIssue[] } | { readonly error: string };

/** A SARIF result as the instant audit writes it: its check and the criteria it fails. */
interface SarifResult {
  readonly ruleId: string;
  readonly properties: { readonly wcagCriteria: readonly string[] };
}

/**
 * The instant audit's whole issue list (every category) on `url`, read from its SARIF answer, the
 * format that names the check behind each issue.
 */
export async function instantVerdict(client: InstantClient, url: string): Promise<Verdict> {
  const response = await client.request({ url }, 'sarif');
  if (response.status !== 200) return { error: `${response.status} ${response.text.slice(0, 200)}` };
  const sarif = JSON.parse(response.text) as { runs: { results: SarifResult[] }[] };
  return {
    issues: sarif.runs.flatMap((run) =>
      run.results.map((result) => ({ procedure: result.ruleId, criteria: result.properties.wcagCriteria })),
    ),
  };
}

/** Plain axe-core's violations on `url`, each its rule with the criteria of its tags. */
export async function axeVerdict(browser: Browser, url: string): Promise<Verdict> {
  try {
    return {
      issues: (await plainAxe(browser, url)).map((violation) => ({
        procedure: violation.id,
        criteria: criteriaOf(violation.tags),
      })),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
