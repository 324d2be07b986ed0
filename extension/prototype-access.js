// @ts-check
// The extension's access to the prototype's site, and the capture scripts that need it. The
// extension holds no access to any site but the service's: it asks the browser for the prototype's
// origin when a session starts (an optional host permission, `chrome.permissions.request`, which only
// a page of the extension can call, in answer to a click: the popup's Start or access.html), and
// registers its event capture (content.js, and page-errors.js in the page's own world) for that
// origin only while the session records. The screen recorder follows the same access
// (screen-recording.js).

/** @typedef {import('./session-state.js').SessionStore} SessionStore */

const SCRIPTS = /** @type {const} */ ([
  { id: 'event-capture', js: ['content.js'], world: 'ISOLATED' },
  { id: 'page-errors', js: ['page-errors.js'], world: 'MAIN' },
]);

/**
 * The prototype's origin (http or https) from its URL, or null.
 * @param {string | null | undefined} prototypeUrl
 */
export function originOf(prototypeUrl) {
  if (!prototypeUrl) return null;
  try {
    const url = new URL(prototypeUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The host permission pattern of an origin. @param {string} origin */
export const originPattern = (origin) => `${origin}/*`;

/** Whether the browser gave the extension the origin. @param {string} origin */
export const hasAccess = (origin) => chrome.permissions.contains({ origins: [originPattern(origin)] });

/** @param {{ store: SessionStore }} deps */
export function prototypeAccess({ store }) {
  /** @type {string | null} the origin the capture scripts are registered for */
  let registeredFor = null;
  let syncing = Promise.resolve();
  /** @type {{ origin: string | null, granted: boolean } | null} the browser's answer, asked once per origin */
  let known = null;

  /** Whether the browser gave the origin: asked again only for another origin or after `recheck`. */
  async function granted(/** @type {string | null} */ origin) {
    if (known?.origin !== origin) known = { origin, granted: origin ? await hasAccess(origin) : false };
    return known.granted;
  }

  async function sync() {
    const origin = originOf(store.state.prototypeUrl);
    const given = await granted(origin);
    if (store.state.access !== given) await store.update({ access: given });
    // The origin to capture now: the session records, and the browser gave access to it.
    const captured = store.state.phase === 'recording' && given ? origin : null;
    if (captured === registeredFor) return;
    // Also after a restart of this worker, whose registrations outlive it.
    await chrome.scripting
      .unregisterContentScripts({ ids: SCRIPTS.map((script) => script.id) })
      .catch(() => {});
    registeredFor = null;
    if (!captured) return;
    const matches = [originPattern(captured)];
    await chrome.scripting.registerContentScripts(
      SCRIPTS.map(({ id, js, world }) => ({
        id,
        matches,
        js: [...js],
        world,
        runAt: /** @type {const} */ ('document_start'),
        persistAcrossSessions: false,
      })),
    );
    registeredFor = captured; // only once registered: a failure is tried again at the next change
    // Pages of the prototype already open are captured from now on.
    for (const tab of await chrome.tabs.query({ url: matches })) {
      if (tab.id === undefined) continue;
      for (const { js, world } of SCRIPTS)
        await chrome.scripting
          .executeScript({ target: { tabId: tab.id }, files: [...js], world })
          .catch(() => {});
    }
  }

  return {
    /** The browser's permissions changed (given, taken back): asked again at the next sync. */
    recheck() {
      known = null;
    },
    /** Brings the registrations in line with the state and the browser's permissions. */
    sync() {
      syncing = syncing.then(sync).catch((error) => console.error('capture registration failed', error));
      return syncing;
    },
  };
}
