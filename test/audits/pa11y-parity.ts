import type { Browser } from 'puppeteer-core';
import { SHADOW_SEPARATOR } from '../../activities/audits/types.ts';

/** One defect: a WCAG criterion failed by one element (selector '' when pa11y names no element). */
export interface Defect {
  readonly criterion: string;
  readonly selector: string;
}

/** pa11y's HTML_CodeSniffer codes name the criterion: ...Guideline1_4.1_4_3.G18 is 1.4.3. */
export const criterionOfPa11yCode = (code: string): string | undefined =>
  /Guideline\d_\d+\.(\d+)_(\d+)_(\d+)/.exec(code)?.slice(1).join('.');

// Runs in the page: for each pa11y defect, whether one of ours has its criterion and names the
// same element (both selectors resolved in the same document; ours may cross shadow roots).
const MATCH_IN_PAGE = `(theirs, ours, separator) => {
  const resolve = (selector) => {
    let root = document;
    const parts = selector.split(separator);
    for (let i = 0; i < parts.length; i++) {
      let el = null;
      try { el = root.querySelector(parts[i]); } catch (e) { return null; }
      if (!el || i === parts.length - 1) return el;
      root = el.shadowRoot;
      if (!root) return null;
    }
    return null;
  };
  return theirs.map((defect) => ours.some((mine) => {
    if (mine.criterion !== defect.criterion) return false;
    if (!defect.selector) return true;
    const a = resolve(defect.selector);
    return !!a && a === resolve(mine.selector);
  }));
}`;

/**
 * The pa11y defects the audit did not find: same criterion on the same element, compared in a
 * fresh load of the page in pa11y's own browser. pa11y defects without an element need only the
 * criterion.
 */
export async function missedDefects(
  browser: Browser,
  url: string,
  theirs: readonly Defect[],
  ours: readonly Defect[],
): Promise<Defect[]> {
  if (!theirs.length) return [];
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    const found = (await page.evaluate(
      `(${MATCH_IN_PAGE})(${JSON.stringify(theirs)}, ${JSON.stringify(ours)}, ${JSON.stringify(SHADOW_SEPARATOR)})`,
    )) as boolean[];
    return theirs.filter((_, i) => !found[i]);
  } finally {
    await page.close();
  }
}

/** Distinct defects by criterion and selector. */
export function distinct(defects: readonly Defect[]): Defect[] {
  const byKey = new Map(defects.map((d) => [`${d.criterion} ${d.selector}`, d]));
  return [...byKey.values()];
}
