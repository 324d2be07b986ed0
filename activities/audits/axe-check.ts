import type AxeCore from 'axe-core';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  FRAME_SEPARATOR,
  atItsLevel,
  SHADOW_SEPARATOR,
  type AuditCategory,
  type Severity,
} from '../../lib/audits.ts';

const require = createRequire(import.meta.url);
/** axe-core's minified build, loaded into every audited page by the browser pool's warm contexts. */
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** The same axe in Node, only to read its rule catalogue (which rule carries which tags). */
const axeCatalogue = require('axe-core') as typeof AxeCore;

export interface AxeFinding {
  readonly ruleId: string;
  readonly category: AuditCategory;
  readonly severity: Severity;
  readonly element: string;
  readonly description: string;
  readonly wcag: readonly string[];
  readonly fix: string;
}

export interface AxeViolation {
  id: string;
  impact: Severity | null;
  tags: string[];
  help: string;
  helpUrl: string;
  nodes: { target: (string | string[])[]; failureSummary?: string; impact?: Severity | null }[];
}

// The project's own heading outline replaces these best-practice rules, and `region` reports every
// line of a page without landmarks, drowning the real issues. `bypass` runs as axe runs it (it asks
// for review rather than failing a page with no landmark, heading or skip link: what repeats across
// pages cannot be seen on one); the own skip-link checks judge a skip link.
const REPLACED_RULES = ['heading-order', 'page-has-heading-one', 'region'];
// The audit checks WCAG 2.2 A and AA (WCAG_VERSION): every axe rule of those levels (2.2's one,
// target-size, 2.5.8, among them) and its best practices; and axe's level AAA rules (enhanced
// contrast, refreshes without exception, links of the same name), reported at level AAA: minor,
// outside the score (atItsLevel, isLevelAaaOnly). See docs/decisions/audits.md, "WCAG 2.2".
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'wcag2aaa', 'best-practice'];
/**
 * axe's rules marked experimental (off unless named) that the audit runs: `css-orientation-lock`
 * (1.3.4, content rotated by a CSS transform in one orientation) judged every W3C ACT case of its
 * rule right (b33eff, 12 of 12), where nothing else checks 1.3.4.
 */
const EXPERIMENTAL_RULES: readonly string[] = ['css-orientation-lock'];
const HEADING_RULES = new Set(['empty-heading', 'heading-order', 'page-has-heading-one', 'p-as-heading']);
/**
 * Criteria that the condition axe finds also fails and axe's tags leave out: an image-map area
 * without alt fails 1.1.1 (H24: the area's image has no text alternative); the level AAA criteria
 * below fail with their level A ones. A field without a name gets none more: it fails 4.1.2 (F68),
 * and 1.3.1 only where a visible label is not tied to it, which axe's rule does not tell apart. An
 * empty heading and a frame without a title get none more: neither fails 1.3.1 or 2.4.1 by itself.
 */
const EXTRA_CRITERIA: Readonly<Record<string, readonly string[]>> = {
  'area-alt': ['1.1.1', '2.4.9'],
  // A link without a name says nothing of its purpose by itself either (2.4.9, level AAA).
  'link-name': ['2.4.9'],
  // A timed refresh the reader did not ask for (what meta-refresh reports: over 0 s, at most 20
  // hours) is an interruption (2.2.4) and a change of context (3.2.5) too; axe's level AAA rule
  // takes the longer ones.
  'meta-refresh': ['2.2.4', '3.2.5'],
};

/** A selector of axe's across shadow roots (an array: the host's, then the selector inside). */
export type CrossTreeSelector = string | string[];

/** A frame axe asks to be run in: the frame element's selector and the part of it to test. */
export interface AxeFrameContext {
  readonly frameSelector: CrossTreeSelector;
  readonly frameContext: unknown;
}

/**
 * What axe's run in one document answers: its partial result (opaque: axe's own, passed back to
 * finishRun) and the frames it holds, which axe must be run in too before the results can be put
 * together.
 */
export interface AxePartialRun {
  readonly partial: unknown;
  readonly frames: AxeFrameContext[];
}

/**
 * axe's options for the rules of the chosen categories: asking for `keyboard` alone still runs
 * axe's keyboard rules (`scrollable-region-focusable`, `nested-interactive`, ...).
 */
export function axeOptions(categories: readonly AuditCategory[]): object {
  const wanted = new Set(categories);
  const disabled = new Set(REPLACED_RULES);
  for (const rule of axeCatalogue.getRules(TAGS)) {
    if (!wanted.has(categoryOf(rule.ruleId, rule.tags))) disabled.add(rule.ruleId);
  }
  const enabled = EXPERIMENTAL_RULES.filter((id) => !disabled.has(id));
  return {
    runOnly: { type: 'tag', values: TAGS },
    rules: Object.fromEntries(
      [...[...disabled].map((id) => [id, false] as const), ...enabled.map((id) => [id, true] as const)].map(
        ([id, on]) => [id, { enabled: on }],
      ),
    ),
    resultTypes: ['violations'],
  };
}

/** The violations of axe's results, trimmed to what axeFindings reads (a function's source). */
const TRIM_VIOLATIONS =
  '(results) => results.violations.map((v) => ({ id: v.id, impact: v.impact, tags: v.tags, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary, impact: n.impact })) }))';

/**
 * The script that runs axe in one document, where `axe` is the expression naming axe there, on
 * `context` (a frame's part, or the whole document): an AxePartialRun. In the order axe's frame
 * support (its runPartial and finishRun) needs: the frames to visit, then this document's rules.
 */
export function partialRunScript(axe: string, options: object, context = 'document'): string {
  return `((axe, options, context) => { const frames = axe.utils.getFrameContexts(context, options); return axe.runPartial(context, options).then((partial) => ({ partial, frames })); })(${axe}, ${JSON.stringify(options)}, ${context})`;
}

/**
 * The script that puts the documents' partial results (`partials`, an expression: the top
 * document's first, then each frame's, depth first, null for a frame that could not be run in)
 * together as axe's violations.
 */
export function finishRunScript(axe: string, options: object, partials: string): string {
  return `${axe}.finishRun(${partials}, ${JSON.stringify(options)}).then(${TRIM_VIOLATIONS})`;
}

/** axe's categories (its `cat.*` tags) folded into the spec's six. */
export function categoryOf(ruleId: string, tags: readonly string[]): AuditCategory {
  if (HEADING_RULES.has(ruleId)) return 'headings';
  if (tags.includes('cat.color')) return 'contrast';
  if (tags.includes('cat.keyboard')) return 'keyboard';
  if (tags.includes('cat.text-alternatives') && ruleId !== 'frame-title' && ruleId !== 'document-title')
    return 'images';
  if (tags.includes('cat.forms')) return 'forms';
  return 'aria';
}

/** WCAG success criteria from axe's tags: `wcag143` is 1.4.3; level tags (`wcag2aa`) are skipped. */
export function criteriaOf(tags: readonly string[]): string[] {
  return tags.flatMap((tag) => {
    const match = /^wcag(\d)(\d)(\d+)$/.exec(tag);
    return match ? [`${match[1]}.${match[2]}.${match[3]}`] : [];
  });
}

/**
 * axe's `color-contrast-enhanced` (1.4.6, level AAA) leaves out text that already fails
 * `color-contrast` (1.4.3), though text under the minimum is under the enhanced ratio too: each such
 * element is reported under 1.4.6 as well, as a failure of the enhanced rule (at level AAA: minor,
 * outside the score), with the ratio that rule expects (7:1, 4.5:1 for large text).
 */
function withEnhancedContrast(violations: readonly AxeViolation[]): readonly AxeViolation[] {
  const minimum = violations.find(({ id }) => id === 'color-contrast');
  const rule = axeCatalogue.getRules(['wcag2aaa']).find(({ ruleId }) => ruleId === 'color-contrast-enhanced');
  if (!minimum || !rule) return violations;
  const enhanced = violations.find(({ id }) => id === rule.ruleId);
  const reported = new Set(enhanced?.nodes.map((node) => selectorOf(node.target)));
  const nodes = minimum.nodes
    .filter((node) => !reported.has(selectorOf(node.target)))
    .map((node) => ({
      ...node,
      ...(node.failureSummary === undefined
        ? {}
        : {
            failureSummary: node.failureSummary.replace(
              /Expected contrast ratio of (4\.5|3):1/,
              (_, ratio: string) => `Expected contrast ratio of ${ratio === '3' ? '4.5' : '7'}:1`,
            ),
          }),
    }));
  if (!nodes.length) return violations;
  const added: AxeViolation = enhanced
    ? { ...enhanced, nodes: [...enhanced.nodes, ...nodes] }
    : {
        id: rule.ruleId,
        impact: minimum.impact,
        tags: rule.tags,
        help: rule.help,
        helpUrl: rule.helpUrl,
        nodes,
      };
  return [...violations.filter((violation) => violation !== enhanced), added];
}

/** axe's violations as findings, one per offending element. */
export function axeFindings(violations: readonly AxeViolation[]): AxeFinding[] {
  return withEnhancedContrast(violations).flatMap((violation) => {
    const wcag = [...new Set([...criteriaOf(violation.tags), ...(EXTRA_CRITERIA[violation.id] ?? [])])];
    return violation.nodes.map((node) => ({
      ruleId: violation.id,
      category: categoryOf(violation.id, violation.tags),
      ...atItsLevel(
        node.impact ?? violation.impact ?? 'moderate',
        describe(violation.help, node.failureSummary),
        wcag,
      ),
      element: selectorOf(node.target),
      wcag,
      fix: `${violation.help} (${violation.helpUrl})`,
    }));
  });
}

/**
 * axe's target as one selector: one part per document (the frames' elements, then the element),
 * joined by FRAME_SEPARATOR; a shadow-DOM path (an array) joins with SHADOW_SEPARATOR, as the
 * kit's own selectors do.
 */
export function selectorOf(target: AxeViolation['nodes'][number]['target']): string {
  return target
    .map((part) => (Array.isArray(part) ? part.join(SHADOW_SEPARATOR) : part))
    .join(FRAME_SEPARATOR);
}

/** axe's rule summary plus its first concrete finding for this element, e.g. the measured ratio. */
function describe(help: string, summary: string | undefined): string {
  const detail = summary
    ?.split('\n')
    .map((line) => line.trim())
    .find((line) => line && !/^Fix (any|all) of the following:?$/.test(line));
  return detail ? `${help}: ${detail}` : help;
}
