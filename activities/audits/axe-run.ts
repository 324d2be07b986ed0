import type { ElementHandle, Frame, Page } from 'playwright-core';
import {
  AXE_SOURCE,
  finishRunScript,
  partialRunScript,
  type AxeFrameContext,
  type AxePartialRun,
  type AxeViolation,
  type CrossTreeSelector,
} from './axe-check.ts';

/** axe in the top document: the kit's copy, kept from before the page's own scripts ran. */
export const TOP_AXE = 'window.__auditKit.axe';
/** axe in a frame's document, where the audit injects it (frames get no init script). */
const FRAME_AXE = 'window.__auditAxe';
/**
 * axe into a frame's document, once, the frame's own global `axe` (if it has one) given back
 * after (axe keeps its own in a closure). Ends with `void 0`: the value of the last statement is
 * what evaluate sends back, and axe's whole object would be serialised over the protocol.
 */
const INJECT_INTO_FRAME = `if (!window.__auditAxe) {\nconst own = window.axe;\n${AXE_SOURCE}\n;window.__auditAxe = window.axe;\nwindow.axe = own;\n}\nvoid 0;`;

/**
 * Frames axe is run in, at most, per page (depth first: later ones count as untested), and how
 * long one frame may take, within the time the audit gives all frames (`deadline`): a frame that
 * is still loading or never answers must not hold the audit.
 */
const MAX_FRAMES = 16;
const FRAME_TIMEOUT_MS = 3000;

/**
 * The script for the top document: axe's run there, finished at once when the page has no
 * frames (one round trip, as most pages need), else its partial result and the frames to visit.
 */
export function topAxeScript(options: object): string {
  return `${partialRunScript(TOP_AXE, options)}.then((run) => run.frames.length ? run : ${finishRunScript(TOP_AXE, options, '[run.partial]')}.then((violations) => ({ violations })))`;
}

export type TopAxeRun = { readonly violations: AxeViolation[] } | AxePartialRun;

/**
 * axe's violations for the whole page: when the top document holds frames, axe (injected) runs in
 * each, same-origin or not (`srcdoc` too), through its frame support (runPartial in every
 * document, finishRun in the top one), so an issue inside a frame is found, and so is a frame
 * that takes focusable content out of the tab order (axe's frame-focusable-content).
 */
export async function axeViolations(
  page: Page,
  top: TopAxeRun,
  options: object,
  deadline: number,
): Promise<AxeViolation[]> {
  if ('violations' in top) return top.violations;
  const budget = { frames: MAX_FRAMES, deadline };
  const partials = [
    top.partial,
    ...(await framePartials(page.mainFrame(), TOP_AXE, top.frames, options, budget)),
  ];
  return page.evaluate<AxeViolation[]>(finishRunScript(TOP_AXE, options, JSON.stringify(partials)));
}

/** The partial results of the frames `contexts` names in `parent`, each followed by its own frames'. */
async function framePartials(
  parent: Frame,
  parentAxe: string,
  contexts: readonly AxeFrameContext[],
  options: object,
  budget: { frames: number; readonly deadline: number },
): Promise<unknown[]> {
  const partials: unknown[] = [];
  for (const { frameSelector, frameContext } of contexts) {
    const timeout = Math.min(FRAME_TIMEOUT_MS, budget.deadline - Date.now());
    const frame =
      budget.frames-- > 0 && timeout > 0
        ? await withTimeout(frameOf(parent, parentAxe, frameSelector), timeout)
        : null;
    const run = frame && (await withTimeout(runInFrame(frame, frameContext, options), timeout));
    if (!frame || !run) {
      partials.push(null);
      continue;
    }
    partials.push(run.partial, ...(await framePartials(frame, FRAME_AXE, run.frames, options, budget)));
  }
  return partials;
}

async function runInFrame(frame: Frame, context: unknown, options: object): Promise<AxePartialRun> {
  await frame.evaluate(INJECT_INTO_FRAME);
  return frame.evaluate<AxePartialRun>(partialRunScript(FRAME_AXE, options, JSON.stringify(context)));
}

/** The frame whose element axe's selector names in `parent`, or null (gone, or no document). */
async function frameOf(parent: Frame, axe: string, selector: CrossTreeSelector): Promise<Frame | null> {
  try {
    const handle = await parent.evaluateHandle(`${axe}.utils.shadowSelect(${JSON.stringify(selector)})`);
    const element = handle.asElement() as ElementHandle | null;
    const frame = element && (await element.contentFrame());
    await handle.dispose();
    return frame;
  } catch {
    return null;
  }
}

/** The promise's value, or null when it fails or takes longer than `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise.catch(() => null), late]);
  } finally {
    clearTimeout(timer);
  }
}
