import type { Page } from 'playwright-core';
import { tabWalk, type FocusState } from './tab-walk.ts';

export interface RawFinding {
  readonly ruleId: string;
  readonly element: string;
  readonly description: string;
  /**
   * The WCAG criteria this finding fails, when they depend on what was found (a rule's own list
   * otherwise, OWN_RULES): empty where the page meets the criterion another way (docs/audits.md).
   */
  readonly wcag?: readonly string[];
}

interface Candidate {
  readonly k: number;
  readonly selector: string;
  readonly positiveTabindex: boolean;
  /** aria-disabled="true": checked when reached, never reported unreachable (the page may skip it). */
  readonly mayBeSkipped: boolean;
}

/** What the kit's collect() found before the walk: the tab stops to expect and the widgets without one. */
export interface WalkPreparation {
  readonly candidates: Candidate[];
  readonly widgets: RawFinding[];
  readonly beforeMain: number;
  /** The page offers another way past repeated content (a main landmark or a heading: 2.4.1's H69, ARIA11). */
  readonly otherBypass: boolean;
}

export interface SkipLink {
  readonly selector: string;
  readonly k: string | null;
  readonly target: string;
  readonly targetExists: boolean;
  readonly targetVisible: boolean;
}

/** Tab stops before the main content from which a page needs a way to bypass them (WCAG 2.4.1). */
const SKIP_LINK_THRESHOLD = 3;

/**
 * Walks the page with real Tab key presses (see tab-walk.ts) and reports what axe cannot see
 * from the DOM alone: traps, unreachable controls, focus order against the layout, skip links,
 * and focus indicators that do not change anything on screen. Controls count as unreachable only
 * after a full pass: a walk cut short by a trap or the deadline proves nothing about the rest, and
 * one cut short by its budget (presses or time) says so with a `keyboard-walk-incomplete` issue.
 */
export async function keyboardChecks(
  page: Page,
  prep: WalkPreparation,
  skip: SkipLink | null,
  deadline: number,
): Promise<RawFinding[]> {
  const walk = await tabWalk(page, prep.candidates.length, deadline);
  const visited = walk.stretches.flat();
  const findings: RawFinding[] = [...prep.widgets, ...walk.traps];
  if (walk.outOfBudget) findings.push(incompleteWalk(walk.outOfBudget));
  if (walk.fullPass) {
    const reached = new Set(visited.map((s) => s.k));
    for (const candidate of prep.candidates) {
      if (!reached.has(candidate.k) && !candidate.mayBeSkipped) {
        findings.push({
          ruleId: 'keyboard-unreachable',
          element: candidate.selector,
          description: 'This control never receives focus when tabbing through the page',
        });
      }
    }
  }
  for (const stretch of walk.stretches) findings.push(...focusOrderFindings(stretch, prep.candidates));
  findings.push(...focusIndicatorFindings(visited, walk.resting));
  findings.push(...obscuredFocusFindings(visited));
  findings.push(...hiddenFocusFindings(visited));
  findings.push(...skipLinkFindings(skip, prep, walk.fullPass ? visited : null));
  return findings;
}

/**
 * The walk stopped for lack of presses or time: say so, rather than let a page with more tab stops
 * than the walk can press through look as if its keyboard access had been checked.
 */
function incompleteWalk(stop: { presses: number; lastFocus: string | null }): RawFinding {
  return {
    ruleId: 'keyboard-walk-incomplete',
    element: stop.lastFocus ?? 'body',
    description: `The keyboard walk stopped after ${stop.presses} Tab presses, its limit for one page, with focus here; the controls after this point were not checked for reachability, keyboard traps, focus order or skip-link reach`,
  };
}

/** Wholly above or left of the page's origin, where no scrolling shows it: it has no place in the layout. */
const offPage = (rect: FocusState['rect']) => rect.top + rect.height <= 0 || rect.left + rect.width <= 0;

/**
 * Consecutive tab stops that run against the layout: the next one sits in the same row but to
 * the left, or in the same column but above. Jumps between columns are normal reading order. A
 * stop placed off the page (a focus sentinel at `top: -999em`) is in no row or column.
 */
function focusOrderFindings(visited: readonly FocusState[], candidates: readonly Candidate[]): RawFinding[] {
  const findings: RawFinding[] = [];
  const positive = new Set(candidates.filter((c) => c.positiveTabindex).map((c) => c.k));
  // The stops around an off-page one are compared with each other.
  const placed = visited.filter((stop) => !offPage(stop.rect));
  for (let i = 1; i < placed.length; i++) {
    const a = placed[i - 1]!.rect;
    const b = placed[i]!.rect;
    const sameRow = b.top < a.top + a.height && a.top < b.top + b.height;
    const sameColumn = b.left < a.left + a.width && a.left < b.left + b.width;
    const backwards =
      (sameRow && b.left + b.width <= a.left) || (sameColumn && !sameRow && b.top + b.height <= a.top);
    if (backwards) {
      findings.push({
        ruleId: 'focus-order',
        element: placed[i]!.selector,
        description: `Receives focus after ${placed[i - 1]!.selector} although it comes before it on screen`,
      });
    } else if (positive.has(placed[i]!.k ?? -1)) {
      // A positive tabindex whose order still follows the layout fails nothing: a risk, not a failure.
      findings.push({
        ruleId: 'focus-order',
        element: placed[i]!.selector,
        description:
          'Has a positive tabindex, which takes it out of the document order (the order here still follows the layout)',
        wcag: [],
      });
    }
  }
  return findings;
}

/** Tab stops whose styles with keyboard focus are the same as at rest: focus is invisible (2.4.7). */
function focusIndicatorFindings(
  visited: readonly FocusState[],
  resting: Readonly<Record<string, string>>,
): RawFinding[] {
  const keyed = visited.filter((s): s is FocusState & { k: number } => s.k !== null);
  return keyed
    .filter((s) => resting[s.k] !== undefined && resting[s.k] === s.focused)
    .map((s) => ({
      ruleId: 'focus-visible',
      element: s.selector,
      description: 'Nothing changes on screen when this element receives keyboard focus',
    }));
}

/**
 * Tab stops that content pinned to the viewport hides once they have focus: entirely fails 2.4.11
 * (Focus Not Obscured, AA), in part only 2.4.12 (its AAA twin). Each element once.
 */
function obscuredFocusFindings(visited: readonly FocusState[]): RawFinding[] {
  const reported = new Map<string, RawFinding>();
  for (const { selector, obscured } of visited) {
    if (!obscured || (reported.has(selector) && !obscured.entirely)) continue;
    reported.set(selector, {
      ruleId: 'focus-obscured',
      element: selector,
      description: obscured.entirely
        ? `Hidden entirely behind ${obscured.by}, which stays fixed on screen, when it receives keyboard focus`
        : `Partly hidden behind ${obscured.by}, which stays fixed on screen, when it receives keyboard focus`,
      wcag: obscured.entirely ? ['2.4.11'] : ['2.4.12'],
    });
  }
  return [...reported.values()];
}

/**
 * Elements that keep keyboard focus inside content hidden from assistive technologies
 * (`aria-hidden="true"`): a screen reader announces nothing where the keyboard is (4.1.2). A focus
 * sentinel that passes focus on at once is never the element focus rests on, so it is not one.
 * Each element once.
 */
function hiddenFocusFindings(visited: readonly FocusState[]): RawFinding[] {
  const selectors = new Set(visited.filter((stop) => stop.ariaHidden).map((stop) => stop.selector));
  return [...selectors].map((selector) => ({
    ruleId: 'aria-hidden-focused',
    element: selector,
    description:
      'Receives keyboard focus inside content hidden from assistive technologies (aria-hidden="true"): a screen reader user hears nothing where the keyboard is',
  }));
}

/**
 * A skip link must be reached by Tab (hidden until focused is fine, display:none is not) and lead
 * to a visible target. `visited` is null when the walk made no full pass, so reach is unknown.
 */
function skipLinkFindings(
  skip: SkipLink | null,
  prep: WalkPreparation,
  visited: readonly FocusState[] | null,
): RawFinding[] {
  return skipLinkProblems(skip, prep, visited).map((finding) =>
    // A main landmark or a heading already lets a person skip the repeated content (2.4.1 is met).
    prep.otherBypass ? { ...finding, wcag: [] } : finding,
  );
}

function skipLinkProblems(
  skip: SkipLink | null,
  prep: WalkPreparation,
  visited: readonly FocusState[] | null,
): RawFinding[] {
  const reached = (s: FocusState) =>
    s.selector === skip?.selector || (s.k !== null && String(s.k) === skip?.k);
  if (skip && visited && !visited.some(reached)) {
    return [
      {
        ruleId: 'skip-link-broken',
        element: skip.selector,
        description:
          'The skip link never receives focus when tabbing (display:none or visibility:hidden hide it from keyboard users too); show it on focus instead',
      },
    ];
  }
  if (skip && (!skip.targetExists || !skip.targetVisible)) {
    return [
      {
        ruleId: 'skip-link-broken',
        element: skip.selector,
        description: skip.targetExists
          ? `The skip link's target #${skip.target} is hidden`
          : `The skip link points at #${skip.target}, which does not exist`,
      },
    ];
  }
  if (!skip && prep.beforeMain >= SKIP_LINK_THRESHOLD) {
    return [
      {
        ruleId: 'skip-link-missing',
        element: prep.candidates[0]?.selector ?? 'body',
        description: `${prep.beforeMain} tab stops come before the main content and there is no skip link to bypass them`,
      },
    ];
  }
  return [];
}
