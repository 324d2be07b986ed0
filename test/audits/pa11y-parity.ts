import type { Browser } from 'puppeteer-core';
import { RESOLVE_SELECTOR } from '../../activities/audits/page-script.ts';

/** One defect: a WCAG criterion failed by one element (selector '' when pa11y names no element). */
export interface Defect {
  readonly criterion: string;
  readonly selector: string;
  /** pa11y's HTML_CodeSniffer code, for its defects (the exceptions are told apart by it). */
  readonly code?: string;
}

/** pa11y's HTML_CodeSniffer codes name the criterion: ...Guideline1_4.1_4_3.G18 is 1.4.3. */
export const criterionOfPa11yCode = (code: string): string | undefined =>
  /Guideline\d_\d+\.(\d+)_(\d+)_(\d+)/.exec(code)?.slice(1).join('.');

/**
 * What pa11y reports that the audit, on purpose, does not report the same way: each one named,
 * with the reason, and narrowed to the elements it describes (`applies` runs in the page on
 * pa11y's element, with the elements of the audit's issues under the same criterion). The fixture
 * pages stay as a site would write them; a pa11y defect is excused only by one of these.
 */
export interface Pa11yException {
  readonly name: string;
  readonly reason: string;
  /** pa11y codes it may excuse. */
  readonly codes: RegExp;
  /** `(element, oursUnderCriterion) => boolean`, as source run in the page. */
  readonly applies: string;
}

export const PA11Y_EXCEPTIONS: readonly Pa11yException[] = [
  {
    name: 'placeholder-is-a-name',
    reason:
      "HTML-AAM names a text field from its placeholder when nothing else does, and axe follows it; HTML_CodeSniffer does not count the placeholder, so it calls the field nameless (4.1.2, and 1.3.1 by F68's old mapping). The field has a name; that a placeholder is a weak label is not a failure of either criterion.",
    codes:
      /\.H91\.(InputText|InputSearch|InputEmail|InputTel|InputUrl|InputPassword|InputNumber|Textarea)\.Name$|\.F68$/,
    applies: `(el) => {
      if (!el.matches('input, textarea') || !(el.getAttribute('placeholder') || '').trim()) return false;
      const labelled = (el.labels && el.labels.length) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title');
      return !labelled;
    }`,
  },
  {
    name: 'autocomplete-token-on-typeless-input',
    reason:
      'HTML_CodeSniffer reads the type attribute, not the type: on an <input> without one (a text field, the default) it reports valid text tokens such as "name" or "postal-code" as 1.3.5 errors. The token is valid for the field.',
    codes: /\.1_3_5\.H98$/,
    applies: `(el) => el.matches('input:not([type])') && el.type === 'text'`,
  },
  {
    name: 'image-link-alt-on-the-image',
    reason:
      "A link whose only content is an image without alt: pa11y names the link (H30.2), the audit names the image (axe's image-alt, 1.1.1) and the link's missing name (link-name, 2.4.4 and 4.1.2). Same defect, another element; excused only when the audit reports 1.1.1 on an image inside that link.",
    codes: /\.H30\.2$/,
    applies: `(el, ours) => ours.some((mine) => mine && mine.tagName === 'IMG' && el.contains(mine))`,
  },
  {
    name: 'in-page-link-to-nothing-is-advice',
    reason:
      'An in-page link (or a skip link beside a main landmark or a heading) to an id that does not exist: HTML_CodeSniffer reports 2.4.1 (G1, G123, G124). A broken link is no missing way to bypass blocks while the page has a landmark or heading; the audit reports it as advice without a criterion (docs/audits.md, "Criteria of the own checks").',
    codes: /\.2_4_1\.G1,G123,G124\.NoSuchID$/,
    applies: `(el) => el.matches('a[href^="#"]') && Boolean(document.querySelector('main, [role=main], h1, h2, h3, h4, h5, h6, [role=heading]'))`,
  },
  {
    name: 'untitled-frame-is-4.1.2',
    reason:
      "A frame without a title: HTML_CodeSniffer reports 2.4.1 (H64.1, a technique sufficient for both 2.4.1 and 4.1.2). A missing frame title leaves the frame without a name (4.1.2, as axe's frame-title reports it, and the audit with it); it takes no way to bypass repeated blocks away.",
    codes: /\.2_4_1\.H64\.1$/,
    applies: `(el) => el.matches('iframe, frame') && !(el.getAttribute('title') || '').trim()`,
  },
  {
    name: 'nameless-field-is-4.1.2',
    reason:
      'A form field without a name: HTML_CodeSniffer reports 1.3.1 (F68) beside 4.1.2 (H91). WCAG 2.2 files F68 under 4.1.2 alone, and a field fails 1.3.1 only where a visible label is not tied to it, which the missing name does not tell; the audit reports the missing name under 4.1.2 (axe\'s label and select-name, docs/decisions/audits.md, "Extra WCAG criteria on axe rules").',
    codes: /\.1_3_1\.F68$/,
    applies: `(el) => el.matches('input, select, textarea') && !(el.labels && el.labels.length) && !['aria-label', 'aria-labelledby', 'title'].some((name) => (el.getAttribute(name) || '').trim())`,
  },
  {
    name: 'empty-heading-is-advice',
    reason:
      "A heading element without text: HTML_CodeSniffer reports 1.3.1 (H42.2). An empty heading conveys no structure that is missing from the content, so it fails no criterion by itself; axe's empty-heading is a best practice, reported as advice.",
    codes: /\.1_3_1\.H42\.2$/,
    applies: `(el) => /^H[1-6]$/.test(el.tagName) && !el.textContent.trim()`,
  },
];

// Runs in the page: for each pa11y defect, whether one of ours has its criterion and names the
// same element (both selectors resolved in the same document; ours may cross shadow roots), else
// the name of the exception that excuses it, else null.
const MATCH_IN_PAGE = `(theirs, ours, exceptions) => {
  ${RESOLVE_SELECTOR}
  const rules = exceptions.map((exception) => ({ name: exception.name, codes: new RegExp(exception.codes), applies: (0, eval)('(' + exception.applies + ')') }));
  return theirs.map((defect) => {
    const same = ours.filter((mine) => mine.criterion === defect.criterion);
    if (!defect.selector && same.length) return { found: true };
    const el = defect.selector ? resolve(defect.selector) : null;
    if (el && same.some((mine) => resolve(mine.selector) === el)) return { found: true };
    const excused = el && rules.find((rule) => rule.codes.test(defect.code || '') && rule.applies(el, same.map((mine) => resolve(mine.selector))));
    return { found: false, exception: excused ? excused.name : null };
  });
}`;

export interface ParityOutcome {
  /** pa11y defects the audit did not find and no exception excuses. */
  readonly missed: Defect[];
  /** pa11y defects excused, with the exception's name. */
  readonly excused: (Defect & { readonly exception: string })[];
}

/**
 * Compares pa11y's defects with the audit's: same criterion on the same element, in a fresh load
 * of the page in pa11y's own browser (pa11y defects without an element need only the criterion);
 * the rest are excused by a named exception or missed.
 */
export async function compareFindings(
  browser: Browser,
  url: string,
  theirs: readonly Defect[],
  ours: readonly Defect[],
): Promise<ParityOutcome> {
  if (!theirs.length) return { missed: [], excused: [] };
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'load' });
    const exceptions = PA11Y_EXCEPTIONS.map((e) => ({
      name: e.name,
      codes: e.codes.source,
      applies: e.applies,
    }));
    const verdicts = (await page.evaluate(
      `(${MATCH_IN_PAGE})(${JSON.stringify(theirs)}, ${JSON.stringify(ours)}, ${JSON.stringify(exceptions)})`,
    )) as { found: boolean; exception?: string | null }[];
    const outcome: { missed: Defect[]; excused: (Defect & { exception: string })[] } = {
      missed: [],
      excused: [],
    };
    theirs.forEach((defect, i) => {
      const verdict = verdicts[i]!;
      if (verdict.found) return;
      if (verdict.exception) outcome.excused.push({ ...defect, exception: verdict.exception });
      else outcome.missed.push(defect);
    });
    return outcome;
  } finally {
    await page.close();
  }
}

/** Distinct defects by criterion and selector. */
export function distinct(defects: readonly Defect[]): Defect[] {
  const byKey = new Map(defects.map((d) => [`${d.criterion} ${d.selector}`, d]));
  return [...byKey.values()];
}
