import type { Browser, Page } from 'playwright-core';
import { rrwebBrowserBuild } from '../../lib/recording/rrweb-build.ts';

// A picture of one moment of a session, made on the server by replaying its DOM recording (rrweb's
// Replayer) in Chromium up to that moment, with the element a finding is about outlined. Nothing
// is fetched while replaying: the recording carries the page's structure and its styles, and an
// address in it (an image, a font) could point anywhere, so every request of the replay is refused
// and images show as empty boxes.

/** rrweb's browser build: `window.rrweb` (the tests and the benchmark record with it too). */
export const RRWEB_SCRIPT = rrwebBrowserBuild();

/** The size a replay is shown at when the recording does not say (no Meta event). */
const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const;
/** A recorded viewport is shown at most this large (a very wide screen makes an unreadable picture). */
const MAX_VIEWPORT = { width: 1920, height: 1200 } as const;
export const OUTLINE_COLOUR = '#d00000';

export interface MomentRequest {
  /** The rrweb events from a full snapshot before the moment on, in order. */
  readonly events: readonly unknown[];
  /** The moment, in ms since the epoch (the events' clock). */
  readonly at: number;
  /** The element to outline (a CSS selector as the extension builds them), if any. */
  readonly selector: string | null;
}

export interface MomentScreenshot {
  readonly png: Buffer;
  readonly width: number;
  readonly height: number;
  /** Whether the element was found in the page at that moment and outlined. */
  readonly outlined: boolean;
  /** The page's address at that moment (origin and path), from the recording. */
  readonly href: string | null;
}

interface RecordedEvent {
  readonly type: number;
  readonly timestamp: number;
  readonly data?: { readonly href?: unknown; readonly width?: unknown; readonly height?: unknown };
}

const META = 4;

/** The last Meta event at or before the moment: the page's address and viewport then. */
function pageAt(events: readonly RecordedEvent[], at: number) {
  let meta: RecordedEvent | undefined;
  for (const event of events) if (event.type === META && event.timestamp <= at) meta = event;
  const size = (value: unknown, fallback: number, max: number) =>
    typeof value === 'number' && value >= 200 ? Math.min(Math.round(value), max) : fallback;
  return {
    href: typeof meta?.data?.href === 'string' ? meta.data.href : null,
    width: size(meta?.data?.width, DEFAULT_VIEWPORT.width, MAX_VIEWPORT.width),
    height: size(meta?.data?.height, DEFAULT_VIEWPORT.height, MAX_VIEWPORT.height),
  };
}

/** The viewport a replay of the moment is shown at: the recorded one, within bounds. */
export function momentViewport(request: Pick<MomentRequest, 'events' | 'at'>): {
  width: number;
  height: number;
} {
  const { width, height } = pageAt(request.events as readonly RecordedEvent[], request.at);
  return { width, height };
}

/** Replays the events up to the moment in a fresh context of `browser`; the picture is the page's viewport. */
export async function screenshotMoment(browser: Browser, request: MomentRequest): Promise<MomentScreenshot> {
  const context = await browser.newContext({
    viewport: momentViewport(request),
    javaScriptEnabled: true,
    serviceWorkers: 'block',
  });
  try {
    return await replayMoment(await context.newPage(), request);
  } finally {
    await context.close();
  }
}

/**
 * Replays the events up to the moment in `tab`, a blank page of a context of its own sized by
 * `momentViewport` (the audit worker's pool gives one); every request of the page is refused.
 */
export async function replayMoment(tab: Page, request: MomentRequest): Promise<MomentScreenshot> {
  const page = pageAt(request.events as readonly RecordedEvent[], request.at);
  await tab.route('**/*', (route) => route.abort('blockedbyclient'));
  await tab.setContent(
    '<!doctype html><html><head><style>html,body{margin:0;overflow:hidden;background:#fff}</style></head><body><div id="stage"></div></body></html>',
  );
  await tab.addScriptTag({ content: RRWEB_SCRIPT });
  const outlined = await tab.evaluate(
    ({ json, at, selector, colour }) => {
      const events = JSON.parse(json) as unknown[];
      type Replayer = {
        pause(offset: number): void;
        iframe: HTMLIFrameElement;
      };
      const { rrweb } = window as unknown as {
        rrweb: { Replayer: new (events: unknown[], options: object) => Replayer };
      };
      const first = (events[0] as { timestamp: number }).timestamp;
      const replayer = new rrweb.Replayer(events, {
        root: document.getElementById('stage'),
        mouseTail: false,
        showWarning: false,
        showDebug: false,
        triggerFocus: false,
        UNSAFE_replayCanvas: false,
        skipInactive: false,
      });
      replayer.pause(Math.max(0, at - first));
      const frame = replayer.iframe;
      frame.style.border = '0';
      const doc = frame.contentDocument;
      let element: Element | null;
      try {
        element = selector && doc ? doc.querySelector(selector) : null;
      } catch {
        element = null; // a selector this page's engine does not take
      }
      // Not `instanceof`: the replay's sandboxed frame has prototypes of its own.
      if (!element || !('style' in element)) return false;
      const styled = element as HTMLElement;
      styled.scrollIntoView({ block: 'center', inline: 'nearest' });
      styled.style.setProperty('outline', `4px solid ${colour}`, 'important');
      styled.style.setProperty('outline-offset', '2px', 'important');
      return true;
    },
    // One string, parsed in the page: Playwright's copy of a large object graph takes seconds.
    {
      json: JSON.stringify(request.events),
      at: request.at,
      selector: request.selector,
      colour: OUTLINE_COLOUR,
    },
  );
  // Let the replayed page lay out once more after the outline.
  await tab.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  const frame = tab.locator('#stage iframe');
  const png = await frame.screenshot({ type: 'png', animations: 'disabled' });
  return { png, width: page.width, height: page.height, outlined, href: page.href };
}
