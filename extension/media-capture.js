// @ts-check
// Camera and microphone: the background worker's side. Both are held by the offscreen document
// (offscreen.js), which exists exactly while the session records and at least one of them is
// wanted: the study asks for it and the tester allowed it. The document is opened for what is
// wanted (`offscreen.html?camera=1&microphone=1`) and opened again when that changes; closing it
// ends both at once. What it posts here are scores and transcripts only, which become the spec's
// facial frame items (`/snapshots`) and voice segment items (`/voice`).

/** @typedef {import('./session-state.js').SessionStore} SessionStore */
/** @typedef {import('./session-state.js').SessionState} SessionState */
/** @typedef {import('./api-client.js').SignalKind} SignalKind */
/** @typedef {{ emotions: Record<string, number>, attentionScore: number, gazeX: number, gazeY: number }} Scores */

const OFFSCREEN_PATH = 'offscreen.html';
/** The voice segment item's fields the offscreen document computes (the index is given here). */
const SEGMENT_FIELDS = [
  'startTime',
  'endTime',
  'transcript',
  'sentiment',
  'sentimentScore',
  'hesitationCount',
  'wordsPerMinute',
];
/** Refusals that are the browser's (or the tester's) "no", not a device that may work later. */
const REFUSALS = new Set(['NotAllowedError', 'SecurityError']);

/** @param {SessionState} state */
export function wantsCamera(state) {
  return (
    state.phase === 'recording' &&
    state.signals?.recordFacial === true &&
    state.consent.camera === 'granted' &&
    state.camera !== 'unavailable'
  );
}

/** Voice is recorded for `recordVoice` and for think-aloud studies. @param {SessionState} state */
export function studyWantsVoice(state) {
  return state.signals?.recordVoice === true || state.signals?.requireThinkAloud === true;
}

/** @param {SessionState} state */
export function wantsMicrophone(state) {
  return (
    state.phase === 'recording' &&
    studyWantsVoice(state) &&
    state.consent.microphone === 'granted' &&
    state.microphone !== 'unavailable'
  );
}

/** The offscreen document's path for what the state wants, or null for none. @param {SessionState} state */
function documentFor(state) {
  const camera = wantsCamera(state);
  const microphone = wantsMicrophone(state);
  if (!camera && !microphone) return null;
  return `${OFFSCREEN_PATH}?camera=${camera ? 1 : 0}&microphone=${microphone ? 1 : 0}`;
}

/**
 * @param {{ store: SessionStore, record: (kind: SignalKind, item: unknown) => void }} deps
 */
export function mediaCapture({ store, record }) {
  /** Serialises opening and closing, so that a quick pause after a start never leaves a device on. */
  let chain = Promise.resolve();

  /**
   * The open document's URL, as the browser knows it: a worker the browser restarted finds the
   * document it left open, and does not reopen it (which would reload the models).
   */
  const openUrl = async () => {
    const [context] = await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] });
    return context ? (/** @type {{ documentUrl?: string }} */ (context).documentUrl ?? '') : null;
  };

  async function apply() {
    const path = documentFor(store.state);
    const wanted = path === null ? null : chrome.runtime.getURL(path);
    const opened = await openUrl();
    const open = opened !== null;
    if (open && wanted !== opened) {
      await chrome.offscreen.closeDocument();
      /** @type {Partial<SessionState>} */
      const off = {};
      if (store.state.camera === 'recording') off.camera = 'off';
      if (store.state.microphone === 'recording') off.microphone = 'off';
      if (Object.keys(off).length) await store.update(off);
    }
    if (path !== null && wanted !== opened) {
      await chrome.offscreen.createDocument({
        url: path,
        reasons: ['USER_MEDIA'],
        justification:
          'Expression scores and transcripts for the usability session, computed on this computer',
      });
    }
    await showIndicator();
  }

  async function showIndicator() {
    const camera = store.state.camera === 'recording' && wantsCamera(store.state);
    const microphone = store.state.microphone === 'recording' && wantsMicrophone(store.state);
    const text = camera && microphone ? 'C+M' : camera ? 'CAM' : microphone ? 'MIC' : '';
    await chrome.action.setBadgeText({ text });
    if (text) await chrome.action.setBadgeBackgroundColor({ color: '#b00020' });
    const on = [
      camera ? 'the camera (expression scores only)' : '',
      microphone ? 'the microphone (transcripts only)' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    await chrome.action.setTitle({ title: on ? `Usability session: ${on} on` : 'Usability session' });
  }

  /**
   * A device the document could not use: a refusal is the tester's "no"; anything else (busy, the
   * model) may pass, and Pause and Resume try again.
   * @param {'camera' | 'microphone'} device @param {string} reason
   */
  async function unavailable(device, reason) {
    const refused = REFUSALS.has(reason);
    const name = device === 'camera' ? 'camera' : 'microphone';
    await store.update({
      [device]: 'unavailable',
      ...(refused ? { consent: { ...store.state.consent, [device]: 'refused' } } : {}),
      message: refused
        ? `The ${name} was refused (${reason}): the session goes on without it.`
        : `The ${name} could not be used (${reason}): the session goes on without it; Pause and Resume try again.`,
    });
  }

  return {
    /** Opens, reopens or closes the document to match the state; called after every change of it. */
    sync() {
      chain = chain.then(apply, apply).catch(() => undefined);
      return chain;
    },

    /** A message of the offscreen document. @param {Record<string, unknown>} message */
    async received(message) {
      switch (message.type) {
        case 'facial-started':
          // A start that arrives after a pause closed the document is no longer true.
          if (wantsCamera(store.state)) await store.update({ camera: 'recording' });
          return;
        case 'voice-started':
          if (wantsMicrophone(store.state)) await store.update({ microphone: 'recording' });
          return;
        case 'facial-unavailable':
          return unavailable('camera', String(message.reason));
        case 'voice-unavailable':
          return unavailable('microphone', String(message.reason));
        case 'facial-frame': {
          if (!wantsCamera(store.state)) return;
          const frameIndex = store.state.nextFrameIndex;
          await store.update({ nextFrameIndex: frameIndex + 1 });
          const timestamp = String(message.timestamp);
          const scores = /** @type {Scores | null} */ (message.scores);
          record(
            'snapshots',
            scores
              ? { frameIndex, timestamp, ...scores }
              : { frameIndex, timestamp, faceDetected: false, attentionScore: 0 },
          );
          return;
        }
        case 'voice-segment': {
          if (!wantsMicrophone(store.state)) return;
          const segmentIndex = store.state.nextSegmentIndex;
          await store.update({ nextSegmentIndex: segmentIndex + 1 });
          // Exactly the spec's voice segment fields: the timings of the analysis stay here.
          record('voice', {
            segmentIndex,
            ...Object.fromEntries(SEGMENT_FIELDS.map((field) => [field, message[field]])),
          });
          return;
        }
      }
    },
  };
}

/** A non-negative integer field of an answer's data, 0 when absent. @param {unknown} data @param {string} field */
export function indexIn(data, field) {
  const value =
    data && typeof data === 'object' ? /** @type {Record<string, unknown>} */ (data)[field] : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 0;
}

/** The study's signal settings in an answer of the snapshots route, when it names them. @param {unknown} data */
export function signalsIn(data) {
  const signals =
    data && typeof data === 'object' ? /** @type {{ signals?: unknown }} */ (data).signals : undefined;
  if (!signals || typeof signals !== 'object') return null;
  const { recordFacial, recordVoice, requireThinkAloud, recordScreen } =
    /** @type {Record<string, unknown>} */ (signals);
  return {
    recordFacial: recordFacial === true,
    recordVoice: recordVoice === true,
    requireThinkAloud: requireThinkAloud === true,
    recordScreen: recordScreen === true,
  };
}
