import type { Browser } from 'playwright-core';
import { AXE_SOURCE, selectorOf, type AxeViolation } from '../../activities/audits/axe-check.ts';

/** One violation of plain axe: its rule, its tags and its elements, named as the audit names them. */
export interface PlainAxeViolation {
  readonly id: string;
  readonly tags: readonly string[];
  readonly elements: readonly string[];
}

// axe in every document of the page, cross-origin messaging allowed, so its own frame support
// reaches every frame: plain axe the way a careful integrator runs it.
const INJECT = `${AXE_SOURCE}\n;axe.configure({ allowedOrigins: ['<unsafe_all_origins>'] });`;

/**
 * Plain axe-core on `url` in a fresh context of `browser`, after the load event, with `options`
 * (axe's defaults when none); a page that moves on after its load is run again where it landed.
 * Shared by the parity test with axe and the conformance benchmark.
 */
export async function plainAxe(
  browser: Browser,
  url: string,
  options: object = {},
): Promise<PlainAxeViolation[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
    const run = async () => {
      for (const frame of page.frames()) await frame.evaluate(INJECT);
      return page.evaluate<Pick<AxeViolation, 'id' | 'tags' | 'nodes'>[]>(
        `axe.run(document, ${JSON.stringify({ ...options, resultTypes: ['violations'] })}).then((r) => r.violations.map((v) => ({ id: v.id, tags: v.tags, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
      );
    };
    const violations = await run().catch(async () => {
      await page.waitForLoadState('load');
      return run();
    });
    return violations.map(({ id, tags, nodes }) => ({
      id,
      tags,
      elements: nodes.map((node) => selectorOf(node.target)),
    }));
  } finally {
    await context.close();
  }
}
