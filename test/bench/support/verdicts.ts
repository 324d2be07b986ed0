import type { Browser } from 'playwright-core';
import { criteriaOf } from '../../../activities/audits/axe-check.ts';
import type { InstantClient, InstantResult } from '../../audits/instant-client.ts';
import { plainAxe } from '../../audits/plain-axe.ts';

/**
 * What a tool said of one page: the WCAG criteria of each issue it reported (an issue without
 * criteria is a best practice), or why it could not audit the page.
 */
export type Verdict = { readonly issues: readonly (readonly string[])[] } | { readonly error: string };

/** The instant audit's whole issue list (`issues`, every category) on `url`. */
export async function instantVerdict(client: InstantClient, url: string): Promise<Verdict> {
  const response = await client.request({ url });
  if (response.status !== 200) return { error: `${response.status} ${response.text.slice(0, 200)}` };
  return { issues: (response.body.data as InstantResult).issues.map((issue) => issue.wcagCriteria) };
}

/** Plain axe-core's violations on `url`, each with the criteria of its tags. */
export async function axeVerdict(browser: Browser, url: string): Promise<Verdict> {
  try {
    return { issues: (await plainAxe(browser, url)).map((violation) => criteriaOf(violation.tags)) };
  } catch (error) {
    return { error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
