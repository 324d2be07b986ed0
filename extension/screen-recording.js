// @ts-check
// The background half of the screen recording (recorder.js records the page): registers the
// recorder for the prototype's origin only while the session records a study that records the
// screen, takes the events of the one tab being recorded, and turns each delivery into a numbered,
// gzip-compressed chunk in the `screen` outbox, which sends them to the snapshots route as
// `{chunk, recording}` items (docs/decisions/sessions.md, "Screen recordings").

/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {import('./outbox.js').Outbox} Outbox */

const SCRIPT_ID = 'screen-recorder';
/** rrweb's full snapshot event type: the tab that sends one becomes the recorded tab. */
const FULL_SNAPSHOT = 2;
/** The API's bound on a chunk, compressed (lib/recording/chunk.ts). */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** Bytes an image, sound or video carried inline would bring; none leaves (replaced by an empty data URL). */
const INLINE_MEDIA = /data:(?:image|audio|video)\/[\w.+-]+(?:;[\w-]+=[\w.-]+)*;base64,[A-Za-z0-9+/=]*/gi;

/**
 * @param {{ store: SessionStore, outbox: Outbox, kick: () => void }} deps
 */
export function screenRecording({ store, outbox, kick }) {
  /** @type {number | undefined} the tab whose events are recorded now */
  let recordedTab;
  /** @type {string | null} the origin the recorder is registered for */
  let registeredFor = null;
  /** Registrations run one after another. */
  let syncing = Promise.resolve();

  /** The prototype's origin while the session records the screen; null otherwise. */
  const recordedOrigin = () => {
    const { phase, signals, prototypeUrl } = store.state;
    if (phase !== 'recording' || !signals?.recordScreen || !prototypeUrl) return null;
    try {
      const url = new URL(prototypeUrl);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
    } catch {
      return null;
    }
  };

  /** Brings the recorder's registration (and the `screen` key pages read) in line with the state. */
  async function sync() {
    const origin = recordedOrigin();
    if (origin === registeredFor) return;
    // Also after a restart of this worker, whose registration outlives it.
    await chrome.scripting.unregisterContentScripts({ ids: [SCRIPT_ID] }).catch(() => {});
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

  return {
    sync() {
      syncing = syncing
        .then(sync)
        .catch((error) => console.error('screen recorder registration failed', error));
      return syncing;
    },

    /**
     * Events from a page's recorder. Taken only while the screen is recorded, from a page of the
     * prototype's origin, and from the recorded tab (the last to send a full snapshot).
     * @param {chrome.runtime.MessageSender} sender @param {unknown} events
     * @returns {Promise<{ snapshot?: boolean }>} `snapshot`: the page should send a full snapshot
     */
    async received(sender, events) {
      const origin = recordedOrigin();
      const tabId = sender.tab?.id;
      if (!origin || tabId === undefined || !sender.url || new URL(sender.url).origin !== origin) return {};
      if (!Array.isArray(events) || !events.length) return {};
      const snapshot = /** @type {unknown[]} */ (events).some(
        (event) =>
          typeof event === 'object' &&
          event !== null &&
          /** @type {{ type?: unknown }} */ (event).type === FULL_SNAPSHOT,
      );
      if (snapshot) recordedTab = tabId;
      if (tabId !== recordedTab) return recordedTab === undefined ? { snapshot: true } : {};
      const seq = store.state.nextChunk;
      await store.update({ nextChunk: seq + 1 });
      const recording = await compress(JSON.stringify(events).replace(INLINE_MEDIA, 'data:,'));
      if (recording.length > Math.ceil(MAX_CHUNK_BYTES / 3) * 4) {
        await store.update({
          message: 'A part of the screen recording was too large to send and was left out.',
        });
        return {};
      }
      // A chunk is a batch of its own: a few of the largest would pass the API's body limit.
      if (outbox.add({ chunk: seq, recording }) || outbox.seal()) kick();
      return {};
    },
  };
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
