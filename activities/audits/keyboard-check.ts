import type { Page } from 'playwright-core';

export interface RawFinding {
  readonly ruleId: string;
  readonly element: string;
  readonly description: string;
}

interface Candidate {
  readonly k: number;
  readonly selector: string;
  readonly positiveTabindex: boolean;
}

interface FocusState {
  readonly k: number | null;
  readonly selector: string;
  readonly rect: { top: number; left: number; width: number; height: number };
  readonly focused: string;
}

/** What the kit's collect() found before the walk: the tab stops to expect and the widgets without one. */
export interface WalkPreparation {
  readonly candidates: Candidate[];
  readonly widgets: RawFinding[];
  readonly beforeMain: number;
  readonly hasMain: boolean;
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
const MAX_STEPS = 150;

/**
 * Walks the page with real Tab key presses, the way a keyboard user does, and reports what axe
 * cannot see from the DOM alone: traps, unreachable controls, focus order against the layout,
 * skip links, and focus indicators that do not change anything on screen.
 */
export async function keyboardChecks(
  page: Page,
  prep: WalkPreparation,
  skip: SkipLink | null,
): Promise<RawFinding[]> {
  const findings: RawFinding[] = [...prep.widgets];
  const visited: FocusState[] = [];
  const seen = new Map<string, number>();
  let trapped = false;
  const limit = Math.min(MAX_STEPS, prep.candidates.length * 2 + 5);

  for (let step = 0; step < limit; step++) {
    await page.keyboard.press('Tab');
    const state = await page.evaluate<FocusState | null>('window.__auditKit.focusState()');
    if (!state) {
      if (visited.length) break; // focus left the document: one full pass is done
      continue;
    }
    const previous = seen.get(state.selector);
    if (previous !== undefined) {
      // Back at an element of this pass without leaving the page: focus cannot get out.
      const loop = visited.slice(previous).map((s) => s.selector);
      const remaining = prep.candidates.length - new Set(visited.map((s) => s.selector)).size;
      if (remaining > 0 || loop.length === 1) {
        trapped = true;
        findings.push({
          ruleId: 'keyboard-trap',
          element: loop[0]!,
          description:
            loop.length === 1
              ? 'Keyboard focus is stuck on this element: Tab does not move focus away'
              : `Keyboard focus cycles among ${loop.length} elements (${loop.slice(0, 4).join(', ')}) and cannot leave them`,
        });
      }
      break;
    }
    seen.set(state.selector, visited.length);
    visited.push(state);
  }

  if (!trapped) {
    const reached = new Set(visited.map((s) => s.k));
    for (const candidate of prep.candidates) {
      if (!reached.has(candidate.k)) {
        findings.push({
          ruleId: 'keyboard-unreachable',
          element: candidate.selector,
          description: 'This control never receives focus when tabbing through the page',
        });
      }
    }
  }
  findings.push(...focusOrderFindings(visited, prep.candidates));
  findings.push(...(await focusIndicatorFindings(page, visited)));
  findings.push(...skipLinkFindings(skip, prep));
  return findings;
}

/**
 * Consecutive tab stops that run against the layout: the next one sits in the same row but to
 * the left, or in the same column but above. Jumps between columns are normal reading order.
 */
function focusOrderFindings(visited: readonly FocusState[], candidates: readonly Candidate[]): RawFinding[] {
  const findings: RawFinding[] = [];
  const positive = new Set(candidates.filter((c) => c.positiveTabindex).map((c) => c.k));
  for (let i = 1; i < visited.length; i++) {
    const a = visited[i - 1]!.rect;
    const b = visited[i]!.rect;
    const sameRow = b.top < a.top + a.height && a.top < b.top + b.height;
    const sameColumn = b.left < a.left + a.width && a.left < b.left + b.width;
    const backwards =
      (sameRow && b.left + b.width <= a.left) || (sameColumn && !sameRow && b.top + b.height <= a.top);
    if (backwards || positive.has(visited[i]!.k ?? -1)) {
      findings.push({
        ruleId: 'focus-order',
        element: visited[i]!.selector,
        description: `Receives focus after ${visited[i - 1]!.selector} although it comes before it on screen`,
      });
    }
  }
  return findings;
}

async function focusIndicatorFindings(page: Page, visited: readonly FocusState[]): Promise<RawFinding[]> {
  const keyed = visited.filter((s): s is FocusState & { k: number } => s.k !== null);
  if (!keyed.length) return [];
  const resting = await page.evaluate<Record<string, string>>(
    `window.__auditKit.restingStyles(${JSON.stringify(keyed.map((s) => s.k))})`,
  );
  return keyed
    .filter((s) => resting[s.k] !== undefined && resting[s.k] === s.focused)
    .map((s) => ({
      ruleId: 'focus-visible',
      element: s.selector,
      description: 'Nothing changes on screen when this element receives keyboard focus',
    }));
}

function skipLinkFindings(skip: SkipLink | null, prep: WalkPreparation): RawFinding[] {
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
