// @ts-check
// The background half of the screen recording (recorder.js records the page): registers the
// recorder for the prototype's origin only while the session records a study that records the
// screen, takes the events of the one tab being recorded, and turns each delivery into a numbered,
// gzip-compressed chunk in the `screen` outbox, which sends them to the snapshots route as
// `{chunk, recording}` items (docs/decisions/sessions.md, "Screen recordings").

import { originOf } from './prototype-access.js';

/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {import('./outbox.js').Outbox} Outbox */

const SCRIPT_ID = 'screen-recorder';
/** rrweb's full snapshot event type: the tab that sends one becomes the recorded tab. */
const FULL_SNAPSHOT = 2;
/** The API's bound on a chunk, compressed (lib/recording/chunk.ts). */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** The API's bounds on a chunk once inflated (lib/recording/chunk.ts): a larger one is not sent. */
const MAX_CHUNK_JSON_CHARS = 16 * 1024 * 1024;
const MAX_CHUNK_EVENTS = 50_000;
/**
 * An image, sound or video carried inline (base64 or not), up to the end of its quoted value or
 * `url(...)`: none leaves (replaced by an empty data URL).
 */
const INLINE_MEDIA = /data:(?:image|audio|video)\/[^"'\s)\\]*/gi;
/** How long after a pause the recorded tab's last delivery (what it held when paused) is still taken. */
const PAUSE_GRACE_MS = 10_000;
/** How long Complete waits for that last delivery before it sends what it has. */
const LAST_DELIVERY_WAIT_MS = 3_000;
/** Typed values kept for masking in the session's pages, in memory only (`chrome.storage.session`). */
const TYPED_KEY = 'screen:typed';

/**
 * @param {{ store: SessionStore, outbox: Outbox, kick: () => void }} deps
 */
export function screenRecording({ store, outbox, kick }) {
  /** @type {number | undefined} the tab whose events are recorded now */
  let recordedTab;
  /** What was recorded until the last pause, for the paused tab's last delivery. */
  let closed = {
    origin: /** @type {string | null} */ (null),
    tab: /** @type {number | undefined} */ (undefined),
    at: 0,
  };
  /** @type {string | null} the origin the recorder is registered for */
  let registeredFor = null;
  /** Registrations run one after another. */
  let syncing = Promise.resolve();
  /** @type {Promise<unknown>} merges of the typed values, one after another */
  let typedChain = Promise.resolve();
  /** Settles once the paused tab's last delivery is in the outbox (or there is none to wait for). */
  let lastDelivery = { arrived: Promise.resolve(), settle: () => {} };

  /** The prototype's origin while the session records the screen there; null otherwise. */
  const recordedOrigin = () => {
    const { phase, signals, prototypeUrl, access } = store.state;
    if (phase !== 'recording' || !signals?.recordScreen || access !== true) return null;
    return originOf(prototypeUrl);
  };

  /** @type {string | null} the registration `closed` was taken from: each stop is noted once */
  let stoppedFrom = null;

  /**
   * Notes, the moment recording stops, which tab was recorded: its last delivery (what it held)
   * may arrive before the registration is undone, and is taken as the paused tab's.
   */
  function noteStop() {
    if (!registeredFor || recordedOrigin() === registeredFor || stoppedFrom === registeredFor) return;
    stoppedFrom = registeredFor;
    closed = { origin: registeredFor, tab: recordedTab, at: Date.now() };
    /** @type {() => void} */
    let settle = () => {};
    const arrived = /** @type {Promise<void>} */ (
      new Promise((resolve) => (settle = () => resolve(undefined)))
    );
    lastDelivery =
      recordedTab === undefined ? { arrived: Promise.resolve(), settle() {} } : { arrived, settle };
  }

  /** Brings the recorder's registration (and the `screen` key pages read) in line with the state. */
  async function sync() {
    const origin = recordedOrigin();
    if (origin === registeredFor) return;
    noteStop();
    // Also after a restart of this worker, whose registration outlives it.
    await chrome.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] }).catch(() => {});
    stoppedFrom = null;
    recordedTab = undefined;
    registeredFor = origin;
    await chrome.storage.local.set({ screen: origin ? { origin } : null });
    if (!origin) return;
    const matches = [`${origin}/*`];
    await chrome.scripting.registerContentScripts([
      { id: SCRIPT_ID, matches, js: ['recorder.js'], runAt: 'document_idle', persistAcrossSessions: false },
    ]);
    // Pages of the prototype already open get the recorder now.
    for (const tab of await chrome.tabs.query({ url: matches })) {
      if (tab.id === undefined) continue;
      await chrome.scripting
        .executeScript({ target: { tabId: tab.id }, files: ['recorder.js'] })
        .catch(() => {}); // a tab still loading gets it from the registration
    }
  }

  /**
   * One delivery of the recorded tab (or, `late`, of the tab paused a moment ago) as a chunk.
   * @param {number} tabId @param {unknown} events @param {unknown} visible @param {boolean} late
   * @returns {Promise<{ snapshot?: boolean }>}
   */
  async function take(tabId, events, visible, late) {
    if (!Array.isArray(events) || !events.length) return {};
    const snapshot = /** @type {unknown[]} */ (events).some(
      (event) =>
        typeof event === 'object' &&
        event !== null &&
        /** @type {{ type?: unknown }} */ (event).type === FULL_SNAPSHOT,
    );
    // A tab in the background (a clock ticking, a feed) never takes the recording from the one in view.
    if (snapshot && !late && (recordedTab === undefined || visible === true)) recordedTab = tabId;
    if (tabId !== recordedTab && !late) return recordedTab === undefined && visible ? { snapshot: true } : {};
    const json = JSON.stringify(events).replace(INLINE_MEDIA, 'data:,');
    const recording = json.length > MAX_CHUNK_JSON_CHARS ? '' : await compress(json);
    if (
      !recording ||
      events.length > MAX_CHUNK_EVENTS ||
      recording.length > Math.ceil(MAX_CHUNK_BYTES / 3) * 4
    ) {
      await store.update({
        message: 'A part of the screen recording was too large to send and was left out.',
      });
      // What follows needs a full snapshot of its own to be replayed.
      return { snapshot: true };
    }
    const seq = store.state.nextChunk;
    await store.update({ nextChunk: seq + 1 });
    // A chunk is a batch of its own: a few of the largest would pass the API's body limit.
    if (outbox.add({ chunk: seq, recording }) || outbox.seal()) kick();
    return {};
  }

  /** Registrations run one after another. */
  function syncInOrder() {
    syncing = syncing
      .then(sync)
      .catch((error) => console.error('screen recorder registration failed', error));
    return syncing;
  }

  return {
    sync: syncInOrder,
    /** Called with every change of the state before it is stored (the page's recorder reads it). */
    stateChanged: noteStop,

    /**
     * Events from a page's recorder. Taken only while the screen is recorded, from a page of the
     * prototype's origin, and from the recorded tab (the last in view to send a full snapshot); the
     * paused tab's last delivery is taken for a few seconds after a pause.
     * @param {chrome.runtime.MessageSender} sender @param {unknown} events @param {unknown} visible
     *   whether the page was in view
     * @returns {Promise<{ snapshot?: boolean }>} `snapshot`: the page should send a full snapshot
     */
    async received(sender, events, visible) {
      const tabId = sender.tab?.id;
      const late =
        store.state.phase === 'paused' && tabId === closed.tab && Date.now() - closed.at < PAUSE_GRACE_MS;
      const origin = recordedOrigin() ?? (late ? closed.origin : null);
      if (!origin || tabId === undefined || !sender.url || new URL(sender.url).origin !== origin) return {};
      if (late) {
        // The paused tab's last delivery (empty when it held nothing): Complete may go on once it is in.
        const taken = await take(tabId, events, visible, late);
        lastDelivery.settle();
        return taken;
      }
      return take(tabId, events, visible, late);
    },

    /**
     * Waits (a few seconds at most) for what the recorded tab held when recording stopped: Complete
     * sends it before it asks the API to complete the session, which then takes no more.
     */
    async settled() {
      await syncInOrder();
      await Promise.race([
        lastDelivery.arrived,
        new Promise((resolve) => setTimeout(resolve, LAST_DELIVERY_WAIT_MS)),
      ]);
    },

    /**
     * What the tester typed in the session's pages so far (for masking where a later page shows
     * it), merged with what a page reports; kept in memory for this session only, never sent.
     * @param {chrome.runtime.MessageSender} sender @param {unknown} reported
     * @returns {Promise<{ typed: string[] }>}
     */
    typed(sender, reported) {
      // One after another: each reads and writes the whole list.
      const done = typedChain.then(() => mergeTyped(sender, reported));
      typedChain = done.catch(() => {});
      return done;
    },
  };

  /** @param {chrome.runtime.MessageSender} sender @param {unknown} reported @returns {Promise<{ typed: string[] }>} */
  async function mergeTyped(sender, reported) {
    const origin = recordedOrigin();
    if (!origin || !sender.url || new URL(sender.url).origin !== origin) return { typed: [] };
    const sessionId = store.settings?.sessionId ?? null;
    const stored = /** @type {{ sessionId?: unknown, values?: unknown }} */ (
      (await chrome.storage.session.get(TYPED_KEY))[TYPED_KEY] ?? {}
    );
    let values =
      stored.sessionId === sessionId && Array.isArray(stored.values) ? stored.values.map(String) : [];
    for (const value of Array.isArray(reported) ? reported : []) {
      if (typeof value !== 'string' || !value.trim()) continue;
      // A longer value typed on from a shorter one replaces it.
      values = values.filter((known) => !value.startsWith(known));
      if (!values.some((known) => known.startsWith(value))) values.push(value);
    }
    await chrome.storage.session.set({ [TYPED_KEY]: { sessionId, values } });
    return { typed: values };
  }
}

/** Gzip, then base64. @param {string} text @returns {Promise<string>} */
async function compress(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
