import type { CDPSession, ElementHandle, Frame, Page } from 'playwright-core';
import { exitKeysIn } from './exit-keys.ts';
import type { RawFinding } from './keyboard-check.ts';

export interface FocusState {
  /** The kit's number for a tab stop it expected (`data-audit-k`), null for others. */
  readonly k: number | null;
  readonly selector: string;
  readonly rect: { top: number; left: number; width: number; height: number };
  /** The focused element's computed styles that can show focus, joined (see the kit's focusSnapshot). */
  readonly focused: string;
  /** Focus is inside a frame: the top document only sees the frame element. */
  readonly frame: boolean;
  /** Content pinned to the viewport (fixed or sticky) over the focused element, entirely or in part. */
  readonly obscured: { readonly entirely: boolean; readonly by: string } | null;
  /** The focused element is inside content hidden from assistive technologies (`aria-hidden="true"`). */
  readonly ariaHidden: boolean;
}

export interface TabWalk {
  /** Focus stops in order, split where the walk resumed after leaving a widget with Escape. */
  readonly stretches: readonly (readonly FocusState[])[];
  /** Each expected tab stop's styles before the walk, by its `k` (FocusState.focused's twin). */
  readonly resting: Readonly<Record<string, string>>;
  readonly traps: readonly RawFinding[];
  /** Focus went through the whole page and left the document: what it never reached is unreachable. */
  readonly fullPass: boolean;
  /**
   * The walk ran out of Tab presses (MAX_STEPS) or time before a full pass, with no trap to show
   * for it: how many it pressed and where focus was last. Null when it ended for any other reason.
   */
  readonly outOfBudget: { readonly presses: number; readonly lastFocus: string | null } | null;
}

/** A bound on Tab presses for one page, far above the tab stops of any real page. */
const MAX_STEPS = 1500;
/**
 * Tab presses focus may spend inside one frame before the frame counts as holding it: the frame's
 * tab stops (counted in the frame and its own frames, generously) plus FRAME_MARGIN for what the
 * count misses (scrollable regions take focus too). FRAME_STEPS when the frame cannot be read.
 * The Shift+Tab way out is tried as many times.
 */
const FRAME_STEPS = 100;
const FRAME_MARGIN = 10;
/**
 * Tabs sent at once before the stops are read back: one round trip per batch instead of three
 * per Tab. The first batch covers the expected tab stops and the step out of the document, so a
 * page without surprises takes one. Tabs past the end of a pass or around a loop are harmless;
 * their stops are ignored.
 */
const BATCH = 10;
const FIRST_BATCH_MAX = 100;
const TAB = { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 } as const;

/**
 * How long focus is watched at most after a way out of a widget, or after the walk's last Tab: a
 * script that pulls focus back does so within a moment (a timer a blur handler sets), and a
 * keyboard user is then trapped as surely. Only the timers the page set while Tab moved focus are
 * waited for (see movesRun): a page that sets none costs nothing.
 */
const PULL_SETTLE_MS = 1_000;
const MOVES_POLL_MS = 25;
/** Keys named by the page as a way out that one trap is tried with at most. */
const MAX_TOLD_KEYS = 4;
/** What is typed into a field that pulls focus back, in case it holds focus only while empty. */
const TYPED_VALUE = '1';
/** Elements a script pulled focus back to that one walk judges at most. */
const MAX_PULLS_JUDGED = 2;

/** What the kit's takeWalkLog() answers: the stops since the last call, focus now, and where scripts pulled focus back. */
interface WalkLog {
  readonly log: (FocusState | null)[];
  readonly now: FocusState | null;
  readonly pulled: string[];
}

const focusState = (page: Page) => page.evaluate<FocusState | null>('window.__auditKit.focusState()');

/**
 * Presses Tab the way a keyboard user does until focus has gone from the top of the document to
 * its end and left it (a full pass), the deadline passes, or focus is caught. When focus starts
 * somewhere else (a dialog focused on load, or the walk resumed after Escape), the walk goes on
 * through the document's end for a second pass from the top. Focus that comes back to an element
 * of this pass before it left the document is a candidate trap, wherever on the page it happens;
 * it is a trap only when neither Shift+Tab nor Escape gets focus out (WCAG 2.1.2 allows standard
 * exits, such as Escape closing a modal dialog). A frame is one unit: Tabs inside it leave no stop
 * (see the kit's walk log), and a frame that keeps focus for more Tabs than it has tab stops (see
 * frameTabLimit) is a candidate. Running out of presses or time is reported in `outOfBudget`.
 */
export async function tabWalk(page: Page, expectedStops: number, deadline: number): Promise<TabWalk> {
  const walk = new WalkState(
    await page.evaluate<{ fromTop: boolean; resting: Record<string, string> }>(
      'window.__auditKit.beginWalk()',
    ),
  );
  const cdp = await page.context().newCDPSession(page);
  try {
    let unrecorded = 0;
    let batch = Math.min(FIRST_BATCH_MAX, Math.max(BATCH, expectedStops + 2));
    const frameLimits = new Map<string, number>();
    /** Elements a script pulled focus back to that were judged (pullsBack), each once a walk. */
    const judged = new Set<string>();
    let pressed = 0;
    for (; pressed < MAX_STEPS && Date.now() < deadline; pressed += batch) {
      if (pressed) batch = BATCH;
      await pressTabs(cdp, batch);
      const { log, now, pulled } = await page.evaluate<WalkLog>('window.__auditKit.takeWalkLog()');
      unrecorded = log.length ? 0 : unrecorded + batch;
      let loop: string[] | null = null;
      for (const state of log) {
        const next = walk.step(state);
        if (next === 'done') {
          // A pull back comes a moment after the Tab that left: the last batch's, after the walk.
          if (Date.now() + PULL_SETTLE_MS >= deadline) return walk.result(true);
          await movesRun(page);
          const late = await page.evaluate<WalkLog>('window.__auditKit.takeWalkLog()');
          const held = await heldByPulls(
            page,
            walk,
            [...pulled, ...late.pulled],
            judged,
            deadline,
            pressed + batch,
          );
          return held ?? walk.result(true);
        }
        if (next !== 'continue') {
          loop = next;
          break;
        }
      }
      walk.lastFocus = now?.selector ?? walk.lastFocus;
      if (pulled.some((selector) => !judged.has(selector)) && judged.size < MAX_PULLS_JUDGED) {
        const held = await heldByPulls(page, walk, pulled, judged, deadline, pressed + batch);
        if (held) return held;
        // The check moved focus: the walk goes on from there, as after Escape.
        walk.resumeHere();
        continue;
      }
      let frameLimit = 0;
      if (!loop && now?.frame && unrecorded >= BATCH) {
        frameLimit = frameLimits.get(now.selector) ?? (await frameTabLimit(page, now.selector));
        frameLimits.set(now.selector, frameLimit);
        if (unrecorded >= frameLimit) loop = [now.selector];
      }
      if (!loop) continue;

      // Focus came back without leaving the document: try the standard ways out.
      if (walk.escapedBefore(loop)) return walk.result(false); // met again after getting out once
      const exit = await exitFrom(page, new Set(loop), frameLimit || loop.length + 1, deadline);
      if (exit === 'out-of-time') return walk.outOfBudget(pressed + batch);
      await page.evaluate('window.__auditKit.takeWalkLog()'); // the exit's own Tabs are not the walk's
      unrecorded = 0;
      if (!exit) {
        const told = await instructedExit(page, loop, deadline);
        if (told === 'out-of-time') return walk.outOfBudget(pressed + batch);
        // The page is another document now: nothing more is concluded of this one's walk.
        if (told === 'navigated') return walk.result(false);
        await page.evaluate('window.__auditKit.takeWalkLog()');
        if (!told) return walk.trapped(loop);
      }
      // Forward Tab would only lead back into the widget; after Escape closed it (or the key the
      // page names), the walk goes on.
      if (exit === 'shift-tab') return walk.result(false);
      walk.escaped(loop);
    }
    return walk.outOfBudget(pressed);
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/** The walk so far: its stretches of stops, and where the current stretch has been. */
class WalkState {
  private readonly stretches: FocusState[][] = [[]];
  private readonly traps: RawFinding[] = [];
  private readonly escapedLoops = new Set<string>();
  private seen = new Map<string, number>();
  fromTop: boolean;
  /** Where focus was at the end of the last batch read. */
  lastFocus: string | null = null;
  private readonly resting: Record<string, string>;

  constructor(start: { fromTop: boolean; resting: Record<string, string> }) {
    this.fromTop = start.fromTop;
    this.resting = start.resting;
  }

  /** One Tab's stop: go on, the full pass is done, or the loop focus came back into. */
  step(state: FocusState | null): 'continue' | 'done' | string[] {
    const stretch = this.stretches[this.stretches.length - 1]!;
    if (!state) {
      // Focus left the document: after the whole page, or at once on a page with no tab stop.
      if (this.fromTop) return 'done';
      this.fromTop = true;
      this.newStretch();
      return 'continue';
    }
    const previous = this.seen.get(state.selector);
    if (previous === undefined) {
      this.seen.set(state.selector, stretch.length);
      stretch.push(state);
      return 'continue';
    }
    return stretch.slice(previous).map((s) => s.selector);
  }

  escapedBefore(loop: readonly string[]): boolean {
    return this.escapedLoops.has(keyOf(loop));
  }

  /** Escape got focus out of the loop: Chromium resumes Tab where the widget was, not at the top. */
  escaped(loop: readonly string[]): void {
    this.escapedLoops.add(keyOf(loop));
    this.resumeHere();
  }

  /** The walk goes on from wherever focus is now, and passes the page from the top once more. */
  resumeHere(): void {
    this.fromTop = false;
    this.newStretch();
  }

  trapped(loop: readonly string[], finding: RawFinding = trapFinding(loop)): TabWalk {
    this.traps.push(finding);
    return this.result(false);
  }

  result(fullPass: boolean): TabWalk {
    return {
      stretches: this.stretches,
      resting: this.resting,
      traps: this.traps,
      fullPass,
      outOfBudget: null,
    };
  }

  outOfBudget(presses: number): TabWalk {
    return { ...this.result(false), outOfBudget: { presses, lastFocus: this.lastFocus } };
  }

  private newStretch(): void {
    this.stretches.push([]);
    this.seen = new Map();
  }
}

const keyOf = (loop: readonly string[]) => [...loop].sort().join('\n');

/** Real Tab key presses sent back to back; the browser handles them in order. */
async function pressTabs(cdp: CDPSession, count: number): Promise<void> {
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < count; i++) {
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...TAB }));
    sent.push(cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...TAB }));
  }
  await Promise.all(sent);
}

// Counted in the frame's document: everything that can take focus, hidden or not (a generous count
// is only a few more Tab presses), through open shadow roots.
const COUNT_FOCUSABLE = `(() => {
  const focusable = 'a[href], area[href], button, input, select, textarea, summary, iframe, object, embed, audio[controls], video[controls], [tabindex], [contenteditable]';
  let count = 0;
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.matches(focusable)) count++;
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return count;
})()`;

/** How many Tab presses focus may spend in the frame `selector` names before it counts as held. */
async function frameTabLimit(page: Page, selector: string): Promise<number> {
  const handle = await page.evaluateHandle(`window.__auditKit.resolve(${JSON.stringify(selector)})`);
  try {
    // Typed as a handle to an element: DOM types (from the pages' JSX) otherwise narrow it to never.
    const frame = await (handle.asElement() as ElementHandle | null)?.contentFrame();
    return frame ? (await focusableIn(frame)) + FRAME_MARGIN : FRAME_STEPS;
  } catch {
    return FRAME_STEPS; // detached or unreadable: the fixed bound
  } finally {
    await handle.dispose();
  }
}

async function focusableIn(frame: Frame): Promise<number> {
  let count = await frame.evaluate<number>(COUNT_FOCUSABLE);
  for (const child of frame.childFrames()) count += await focusableIn(child);
  return count;
}

/**
 * The standard ways out of a widget: Shift+Tab, then Escape. Which one worked, null when none
 * did, or 'out-of-time' when the deadline came first (so nothing is concluded).
 */
async function exitFrom(page: Page, loop: ReadonlySet<string>, shiftTabs: number, deadline: number) {
  for (let i = 0; i < shiftTabs; i++) {
    if (Date.now() >= deadline) return 'out-of-time';
    await page.keyboard.press('Shift+Tab');
    if (await leftLoop(page, loop)) return 'shift-tab';
  }
  await page.keyboard.press('Escape');
  if (await leftLoop(page, loop)) return 'escape';
  // Escape may close the widget but leave focus where it was until the next Tab.
  await page.keyboard.press('Tab');
  if (await leftLoop(page, loop)) return 'escape';
  return null;
}

/** Focus is out of the loop, and still out a moment later: a script may pull it back (see pullsBack). */
async function leftLoop(page: Page, loop: ReadonlySet<string>): Promise<boolean> {
  const outside = (state: FocusState | null) => !state || !loop.has(state.selector);
  if (!outside(await focusState(page))) return false;
  await movesRun(page);
  return outside(await focusState(page));
}

/**
 * Waits, PULL_SETTLE_MS at most, for the timers the page set while Tab moved focus (the kit's
 * movesSettled: a blur handler's, which may pull focus back); at once when it set none.
 */
async function movesRun(page: Page): Promise<void> {
  const until = Date.now() + PULL_SETTLE_MS;
  while (Date.now() < until && !(await page.evaluate<boolean>('window.__auditKit.movesSettled()')))
    await page.waitForTimeout(MOVES_POLL_MS);
}

/**
 * The way out the page tells the user of (WCAG 2.1.2: "the user is advised of the method"): each
 * key it names in a sentence about leaving (exitKeysIn), pressed from the widget's first element,
 * at most MAX_TOLD_KEYS. Whether one got focus out for good.
 */
async function instructedExit(
  page: Page,
  loop: readonly string[],
  deadline: number,
): Promise<boolean | 'out-of-time' | 'navigated'> {
  const told = exitKeysIn(
    await page.evaluate<string>(`window.__auditKit.exitInstructions(${JSON.stringify(loop)})`),
  );
  const url = page.url();
  for (const key of told.slice(0, MAX_TOLD_KEYS)) {
    if (Date.now() >= deadline) return 'out-of-time';
    await focusOn(page, loop[0]!);
    await page.keyboard.press(key);
    // A key named for something else (Ctrl+Enter to send a comment) may have submitted a form.
    if (page.url() !== url) return 'navigated';
    // Out to an element of the page: focus on nothing is no way out a user can go on from.
    if ((await focusState(page)) && (await leftLoop(page, new Set(loop)))) return true;
  }
  return false;
}

/**
 * The walk's end when a script holds focus on an element it pulled focus back to (pullsBack): a
 * trap there, or out of budget; null when none does, and the walk goes on.
 */
async function heldByPulls(
  page: Page,
  walk: WalkState,
  pulled: readonly string[],
  judged: Set<string>,
  deadline: number,
  presses: number,
): Promise<TabWalk | null> {
  for (const selector of pulled) {
    if (judged.has(selector) || judged.size >= MAX_PULLS_JUDGED) continue;
    judged.add(selector);
    const held = await pullsBack(page, selector, deadline);
    if (held === 'out-of-time') return walk.outOfBudget(presses);
    if (held) return walk.trapped([selector], pullBackFinding(selector));
  }
  // The check's own keys are not the walk's, which goes on from where they left focus.
  if (pulled.length) await page.evaluate('window.__auditKit.takeWalkLog()');
  return null;
}

/**
 * Whether focus on `selector` is held by a script that pulls it back (the kit saw it focused again
 * a moment after a Tab left it): from the element, Tab, Shift+Tab and Escape each leave focus on it
 * once the timers it set have run (movesRun), and, for a field, Tab after typing in it too. A page that moved
 * focus back once (to a field it found invalid, say) and lets it go the next time, or a field that
 * holds focus only while it is empty, is no trap.
 */
async function pullsBack(page: Page, selector: string, deadline: number): Promise<boolean | 'out-of-time'> {
  const heldAfter = async (keys: () => Promise<void>): Promise<boolean | 'out-of-time'> => {
    if (Date.now() + PULL_SETTLE_MS >= deadline) return 'out-of-time';
    if (!(await focusOn(page, selector)) || (await focusState(page))?.selector !== selector) return false;
    await keys();
    await movesRun(page);
    return (await focusState(page))?.selector === selector;
  };
  for (const key of ['Tab', 'Shift+Tab', 'Escape']) {
    const held = await heldAfter(() => page.keyboard.press(key));
    if (held !== true) return held;
  }
  if (!(await page.evaluate<boolean>(`window.__auditKit.editable(${JSON.stringify(selector)})`))) return true;
  return heldAfter(async () => {
    await page.keyboard.type(TYPED_VALUE);
    await page.keyboard.press('Tab');
  });
}

/** Focuses the element `selector` names, as a script would (the kit's focusOn); whether there was one. */
const focusOn = (page: Page, selector: string) =>
  page.evaluate<boolean>(`window.__auditKit.focusOn(${JSON.stringify(selector)})`);

function pullBackFinding(selector: string): RawFinding {
  return {
    ruleId: 'keyboard-trap',
    element: selector,
    description:
      'A script pulls keyboard focus back to this element a moment after it leaves: after Tab, Shift+Tab or Escape, focus is here again',
  };
}

function trapFinding(loop: readonly string[]): RawFinding {
  return {
    ruleId: 'keyboard-trap',
    element: loop[0]!,
    description:
      loop.length === 1
        ? 'Keyboard focus is stuck on this element: neither Tab, Shift+Tab nor Escape moves focus away'
        : `Keyboard focus cycles among ${loop.length} elements (${loop.slice(0, 4).join(', ')}) and neither Tab, Shift+Tab nor Escape gets out`,
  };
}
